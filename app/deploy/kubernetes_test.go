package deploy

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// manifests decodes every document of the Kubernetes files strictly
// (unknown or misspelt fields fail) into its k8s.io/api type.
func manifests(t *testing.T) []any {
	t.Helper()
	files, err := filepath.Glob("kubernetes/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	var objs []any
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checkText(t, path)
		r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(b)))
		for {
			doc, err := r.Read()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if len(bytes.TrimSpace(doc)) == 0 {
				continue
			}
			var tm metav1.TypeMeta
			if err := yaml.Unmarshal(doc, &tm); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			var obj any
			switch tm.APIVersion + " " + tm.Kind {
			case "apps/v1 Deployment":
				obj = &appsv1.Deployment{}
			case "v1 Service":
				obj = &corev1.Service{}
			case "v1 Namespace":
				obj = &corev1.Namespace{}
			case "v1 ConfigMap":
				obj = &corev1.ConfigMap{}
			case "v1 Secret":
				obj = &corev1.Secret{}
			case "policy/v1 PodDisruptionBudget":
				obj = &policyv1.PodDisruptionBudget{}
			case "autoscaling/v2 HorizontalPodAutoscaler":
				obj = &autoscalingv2.HorizontalPodAutoscaler{}
			default:
				t.Fatalf("%s: unexpected %s %s", path, tm.APIVersion, tm.Kind)
			}
			if err := yaml.UnmarshalStrict(doc, obj); err != nil {
				t.Errorf("%s: %s does not decode strictly: %v", path, tm.Kind, err)
				continue
			}
			objs = append(objs, obj)
		}
	}
	return objs
}

func TestKubernetesManifests(t *testing.T) {
	objs := manifests(t)
	deployments := map[string]*appsv1.Deployment{}
	var (
		services []*corev1.Service
		cm       *corev1.ConfigMap
		secret   *corev1.Secret
		pdbs     []*policyv1.PodDisruptionBudget
		hpas     []*autoscalingv2.HorizontalPodAutoscaler
	)
	for _, o := range objs {
		switch o := o.(type) {
		case *appsv1.Deployment:
			deployments[o.Name] = o
		case *corev1.Service:
			services = append(services, o)
		case *corev1.ConfigMap:
			cm = o
		case *corev1.Secret:
			secret = o
		case *policyv1.PodDisruptionBudget:
			pdbs = append(pdbs, o)
		case *autoscalingv2.HorizontalPodAutoscaler:
			hpas = append(hpas, o)
		}
	}
	if cm == nil || secret == nil || len(services) != 1 || len(pdbs) != 2 || len(hpas) != 2 {
		t.Fatalf("want a ConfigMap, a Secret, a Service, 2 PDBs, 2 HPAs; got %v %v %d %d %d", cm != nil, secret != nil, len(services), len(pdbs), len(hpas))
	}
	for k := range cm.Data {
		checkVar(t, "ConfigMap", k)
	}
	for k := range secret.StringData {
		checkVar(t, "Secret", k)
	}
	for _, want := range []string{"DRAGOMAN_DATABASE_URL", "DRAGOMAN_SECRET_KEY"} {
		if _, ok := secret.StringData[want]; !ok {
			t.Errorf("the Secret template lacks %s", want)
		}
	}
	for _, role := range []string{"api", "worker"} {
		d := deployments["dragoman-"+role]
		if d == nil {
			t.Fatalf("no dragoman-%s Deployment", role)
		}
		sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
		if err != nil || !sel.Matches(labelSet(d.Spec.Template.Labels)) {
			t.Errorf("%s: selector %v does not match the pod labels", d.Name, d.Spec.Selector)
		}
		pod := d.Spec.Template.Spec
		if pod.SecurityContext == nil || pod.SecurityContext.RunAsNonRoot == nil || !*pod.SecurityContext.RunAsNonRoot {
			t.Errorf("%s: pods may run as root", d.Name)
		}
		c := pod.Containers[0]
		if !slices.Equal(c.Args[:3], []string{"serve", "--role", role}) {
			t.Errorf("%s runs %v", d.Name, c.Args)
		}
		checkFlags(t, d.Name, c.Args)
		for _, e := range c.Env {
			checkVar(t, d.Name, e.Name)
		}
		for _, ef := range c.EnvFrom {
			switch {
			case ef.ConfigMapRef != nil && ef.ConfigMapRef.Name != cm.Name,
				ef.SecretRef != nil && ef.SecretRef.Name != secret.Name:
				t.Errorf("%s: envFrom names an object that is not there: %+v", d.Name, ef)
			}
		}
		if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/v1/health" || c.LivenessProbe.HTTPGet.Scheme != corev1.URISchemeHTTPS {
			t.Errorf("%s: liveness probe %+v", d.Name, c.LivenessProbe)
		}
		if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/v1/ready" {
			t.Errorf("%s: readiness probe %+v", d.Name, c.ReadinessProbe)
		}
		for _, p := range []*corev1.Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
			if p != nil && p.HTTPGet != nil && !hasPort(c, p.HTTPGet.Port) {
				t.Errorf("%s: a probe uses port %v, which the container does not declare", d.Name, p.HTTPGet.Port.String())
			}
		}
		if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
			t.Errorf("%s: no CPU or memory request", d.Name)
		}
		var covered bool
		for _, pdb := range pdbs {
			s, _ := metav1.LabelSelectorAsSelector(pdb.Spec.Selector)
			covered = covered || s.Matches(labelSet(d.Spec.Template.Labels))
		}
		if !covered {
			t.Errorf("%s: no PodDisruptionBudget selects its pods", d.Name)
		}
		var scaled bool
		for _, h := range hpas {
			if h.Spec.ScaleTargetRef.Kind == "Deployment" && h.Spec.ScaleTargetRef.Name == d.Name {
				scaled = len(h.Spec.Metrics) > 0 && h.Spec.Metrics[0].Resource != nil && h.Spec.Metrics[0].Resource.Name == corev1.ResourceCPU
			}
		}
		if !scaled {
			t.Errorf("%s: no HorizontalPodAutoscaler on CPU", d.Name)
		}
	}
	svc := services[0]
	api := deployments["dragoman-api"]
	if !metav1SelectorMatches(svc.Spec.Selector, api.Spec.Template.Labels) || metav1SelectorMatches(svc.Spec.Selector, deployments["dragoman-worker"].Spec.Template.Labels) {
		t.Errorf("the Service must select the api pods only: %v", svc.Spec.Selector)
	}
	for _, p := range svc.Spec.Ports {
		if !hasPort(api.Spec.Template.Spec.Containers[0], p.TargetPort) {
			t.Errorf("the Service targets port %s, which the api does not declare", p.TargetPort.String())
		}
	}
	hpaText, _ := os.ReadFile("kubernetes/hpa.yaml")
	if !strings.Contains(string(hpaText), "queue depth") {
		t.Error("hpa.yaml lacks the note on queue-depth scaling")
	}
}

type labelSet map[string]string

func (l labelSet) Has(k string) bool              { _, ok := l[k]; return ok }
func (l labelSet) Get(k string) string            { return l[k] }
func (l labelSet) Lookup(k string) (string, bool) { v, ok := l[k]; return v, ok }

func metav1SelectorMatches(sel, labels map[string]string) bool {
	for k, v := range sel {
		if labels[k] != v {
			return false
		}
	}
	return len(sel) > 0
}

func hasPort(c corev1.Container, p intstr.IntOrString) bool {
	for _, cp := range c.Ports {
		if (p.Type == intstr.String && cp.Name == p.StrVal) || (p.Type == intstr.Int && cp.ContainerPort == p.IntVal) {
			return true
		}
	}
	return false
}

package deploy

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/moby/buildkit/frontend/dockerfile/instructions"
	"github.com/moby/buildkit/frontend/dockerfile/linter"
	"github.com/moby/buildkit/frontend/dockerfile/parser"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// serveHelp is what `dragoman serve --help` says: its flags and every
// DRAGOMAN_ variable it names.
type serveHelp struct {
	flags map[string]bool
	vars  map[string]bool
}

var (
	helpOnce sync.Once
	help     serveHelp
	helpErr  error
)

var (
	helpFlag = regexp.MustCompile(`(?m)^\s+-([a-z0-9-]+)`)
	envVar   = regexp.MustCompile(`DRAGOMAN_[A-Z0-9_]*[A-Z0-9]`)
)

// dragomanHelp runs `dragoman serve --help` from DRAGOMAN_BIN (make test)
// or a binary built for the test.
func dragomanHelp(t *testing.T) serveHelp {
	t.Helper()
	helpOnce.Do(func() {
		bin := ""
		if d := os.Getenv("DRAGOMAN_BIN"); d != "" {
			bin = filepath.Join(d, "dragoman")
		} else {
			dir, err := os.MkdirTemp("", "dragoman-deploy-")
			if err != nil {
				helpErr = err
				return
			}
			defer os.RemoveAll(dir)
			bin = filepath.Join(dir, "dragoman")
			if out, err := exec.Command("go", "build", "-o", bin, "..").CombinedOutput(); err != nil {
				helpErr = errors.New("go build: " + err.Error() + "\n" + string(out))
				return
			}
		}
		out, _ := exec.Command(bin, "serve", "--help").CombinedOutput()
		help = serveHelp{flags: map[string]bool{}, vars: map[string]bool{}}
		for _, m := range helpFlag.FindAllStringSubmatch(string(out), -1) {
			help.flags[m[1]] = true
		}
		for _, v := range envVar.FindAllString(string(out), -1) {
			help.vars[v] = true
		}
		if !help.flags["role"] || !help.vars["DRAGOMAN_ROLE"] {
			helpErr = errors.New("serve --help lists no --role / DRAGOMAN_ROLE:\n" + string(out))
		}
	})
	if helpErr != nil {
		t.Fatal(helpErr)
	}
	return help
}

// checkFlags fails for every --flag in args that serve does not have.
func checkFlags(t *testing.T, where string, args []string) {
	t.Helper()
	h := dragomanHelp(t)
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case h.flags[name]:
		default:
			t.Errorf("%s: serve has no flag --%s", where, name)
		}
	}
}

// checkVar fails for a DRAGOMAN_ variable that serve --help does not name.
func checkVar(t *testing.T, where, name string) {
	t.Helper()
	if !strings.HasPrefix(name, "DRAGOMAN_") {
		return
	}
	h := dragomanHelp(t)
	switch {
	case h.vars[name]:
	default:
		t.Errorf("%s: serve --help does not know %s", where, name)
	}
}

// checkText checks every DRAGOMAN_ variable named anywhere in a file,
// comments included.
func checkText(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range envVar.FindAllString(string(b), -1) {
		checkVar(t, path, v)
	}
}

func TestDockerfile(t *testing.T) {
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := parser.Parse(f)
	if err != nil {
		t.Fatalf("Dockerfile does not parse: %v", err)
	}
	var warnings []string
	lint := linter.New(&linter.Config{Warn: func(rule, desc, url, msg string, _ []parser.Range) {
		warnings = append(warnings, rule+": "+msg)
	}})
	stages, _, err := instructions.Parse(res.AST, lint)
	if err != nil {
		t.Fatalf("Dockerfile instructions: %v", err)
	}
	if len(warnings) > 0 {
		t.Errorf("buildkit lint warnings: %v", warnings)
	}
	if len(stages) != 2 || !strings.HasPrefix(stages[0].BaseName, "golang:") || !strings.HasPrefix(stages[1].BaseName, "debian:") {
		t.Fatalf("want a Go build stage then a Debian runtime, got %d stages", len(stages))
	}
	var (
		user             string
		health           bool
		entry, cmd       []string
		installs, copies string
	)
	for _, c := range stages[1].Commands {
		switch c := c.(type) {
		case *instructions.UserCommand:
			user = c.User
		case *instructions.HealthCheckCommand:
			health = c.Health != nil && len(c.Health.Test) > 1 && strings.Contains(strings.Join(c.Health.Test, " "), "/v1/health")
		case *instructions.EntrypointCommand:
			entry = c.CmdLine
		case *instructions.CmdCommand:
			cmd = c.CmdLine
		case *instructions.EnvCommand:
			for _, kv := range c.Env {
				checkVar(t, "Dockerfile ENV", kv.Key)
			}
		case *instructions.RunCommand:
			installs += strings.Join(c.CmdLine, " ")
		case *instructions.CopyCommand:
			if c.From == stages[0].Name {
				copies += strings.Join(c.SourcePaths, " ")
			}
		}
	}
	if user == "" || strings.HasPrefix(user, "0") || strings.HasPrefix(user, "root") {
		t.Errorf("runtime user %q: want a non-root user", user)
	}
	if !health {
		t.Error("no HEALTHCHECK on /v1/health")
	}
	if len(entry) == 0 || filepath.Base(entry[0]) != "dragoman" || !slices.Equal(cmd, []string{"serve"}) {
		t.Errorf("ENTRYPOINT %v CMD %v: want dragoman serve", entry, cmd)
	}
	for _, pkg := range []string{"apertium", "libreoffice-writer", "fonts-noto-core", "fonts-hosny-amiri", "culmus"} {
		if !strings.Contains(installs, pkg) {
			t.Errorf("the runtime does not install %s", pkg)
		}
	}
	if !strings.Contains(copies, "bin/dragoman") || !strings.Contains(copies, "bin/plugins") {
		t.Errorf("the runtime copies %q from the build, want the binary and the plugins", copies)
	}
	checkFlags(t, "Dockerfile CMD", cmd)
	checkText(t, "Dockerfile")
}

// composeEnv is what an operator exports before `docker compose up`.
var composeEnv = []string{"POSTGRES_PASSWORD=pw", "S3_SECRET_KEY=s3secret", "DRAGOMAN_SECRET_KEY=" + strings.Repeat("ab", 32)}

func loadCompose(t *testing.T, env []string, files ...string) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions(files, cli.WithWorkingDirectory("."), cli.WithEnv(env), cli.WithName("dragoman"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("compose %v: %v", files, err)
	}
	return p
}

func TestCompose(t *testing.T) {
	// The secrets are required: without them the file refuses to load.
	opts, err := cli.NewProjectOptions([]string{"compose.yaml"}, cli.WithWorkingDirectory("."), cli.WithEnv(nil), cli.WithName("dragoman"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := opts.LoadProject(context.Background()); err == nil || !strings.Contains(err.Error(), "POSTGRES_PASSWORD") {
		t.Errorf("compose without POSTGRES_PASSWORD loads: %v", err)
	}

	p := loadCompose(t, composeEnv, "compose.yaml")
	for _, name := range []string{"postgres", "nats", "s3", "api", "worker", "prometheus"} {
		if _, err := p.GetService(name); err != nil {
			t.Errorf("no %s service: %v", name, err)
		}
	}
	if _, err := p.GetService("libretranslate"); err == nil {
		t.Error("LibreTranslate is part of the base file; it should be optional")
	}
	nats, _ := p.GetService("nats")
	if !slices.Contains(nats.Command, "-js") {
		t.Errorf("nats without JetStream: %v", nats.Command)
	}
	roles := map[string]string{"api": "api", "worker": "worker"}
	for svc, role := range roles {
		s, _ := p.GetService(svc)
		if s.Deploy == nil || s.Deploy.Replicas == nil || *s.Deploy.Replicas != 2 {
			t.Errorf("%s: want 2 replicas", svc)
		}
		if !slices.Equal(s.Command[:3], []string{"serve", "--role", role}) {
			t.Errorf("%s runs %v", svc, s.Command)
		}
		if s.Build == nil || s.Build.Dockerfile != "app/deploy/Dockerfile" {
			t.Errorf("%s is not built from app/deploy/Dockerfile: %+v", svc, s.Build)
		}
		checkFlags(t, "compose "+svc, s.Command)
		for k := range s.Environment {
			checkVar(t, "compose "+svc, k)
		}
		for _, want := range []string{"DRAGOMAN_DATABASE_URL", "DRAGOMAN_NATS_URL", "DRAGOMAN_BLOB_URL", "DRAGOMAN_SECRET_KEY", "DRAGOMAN_METRICS_ADDR"} {
			if v := s.Environment[want]; v == nil || *v == "" {
				t.Errorf("%s: %s not set", svc, want)
			}
		}
		if got := *s.Environment["DRAGOMAN_SECRET_KEY"]; got != strings.Repeat("ab", 32) {
			t.Errorf("%s: DRAGOMAN_SECRET_KEY is %q, not the exported key", svc, got)
		}
	}
	prom, _ := p.GetService("prometheus")
	if len(prom.Configs) != 1 {
		t.Fatalf("prometheus has no config: %+v", prom.Configs)
	}
	pc := p.Configs[prom.Configs[0].Source]
	for _, target := range []string{"names: [api]", "names: [worker]", "port: 9464"} {
		if !strings.Contains(pc.Content, target) {
			t.Errorf("prometheus config does not scrape %q:\n%s", target, pc.Content)
		}
	}

	// With the RTL override: LibreTranslate, wired as the engine for
	// right-to-left targets on every api and worker replica.
	rtl := loadCompose(t, composeEnv, "compose.yaml", "compose.rtl.yaml")
	if _, err := rtl.GetService("libretranslate"); err != nil {
		t.Fatal(err)
	}
	for svc := range roles {
		s, _ := rtl.GetService(svc)
		if *s.Environment["DRAGOMAN_ENGINES"] != "apertium,libretranslate" || !strings.Contains(*s.Environment["DRAGOMAN_LIBRETRANSLATE_BASE_URL"], "libretranslate:5000") {
			t.Errorf("%s with compose.rtl.yaml: %v", svc, s.Environment)
		}
		for _, lang := range []string{"ar", "he", "fa", "ur"} {
			if !strings.Contains(*s.Environment["DRAGOMAN_ROUTES"], "*:"+lang+"=libretranslate") {
				t.Errorf("%s: %s is not routed to LibreTranslate", svc, lang)
			}
		}
		if *s.Environment["DRAGOMAN_DATABASE_URL"] == "" {
			t.Errorf("%s: the override lost the base environment", svc)
		}
		if _, ok := s.DependsOn["postgres"]; !ok {
			t.Errorf("%s: the override lost the base dependencies", svc)
		}
		for k := range s.Environment {
			checkVar(t, "compose.rtl "+svc, k)
		}
	}
	checkText(t, "compose.yaml")
	checkText(t, "compose.rtl.yaml")
}

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

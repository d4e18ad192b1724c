package deploy

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	psapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"
)

// The namespace enforces Pod Security "restricted", and every pod the
// Deployments make passes it, as the admission controller's own checks
// (k8s.io/pod-security-admission/policy) evaluate it at the latest
// version; besides, the root filesystem is read-only with emptyDir volumes
// for HOME and /tmp, the image tag is pinned and CPU is limited.
func TestKubernetesPodSecurityRestricted(t *testing.T) {
	objs := manifests(t)
	eval, err := policy.NewEvaluator(policy.DefaultChecks(), nil)
	if err != nil {
		t.Fatal(err)
	}
	restricted := psapi.LevelVersion{Level: psapi.LevelRestricted, Version: psapi.LatestVersion()}
	var ns *corev1.Namespace
	deployments := 0
	for _, o := range objs {
		switch o := o.(type) {
		case *corev1.Namespace:
			ns = o
		case *appsv1.Deployment:
			deployments++
			checkRestrictedPod(t, eval, restricted, o)
		}
	}
	if deployments != 2 {
		t.Fatalf("%d Deployments, want the api and the worker", deployments)
	}
	if ns == nil {
		t.Fatal("no Namespace")
	}
	if ns.Labels[psapi.EnforceLevelLabel] != string(psapi.LevelRestricted) {
		t.Errorf("namespace %s does not enforce restricted: %v", ns.Name, ns.Labels)
	}
	for _, o := range objs {
		if m, ok := o.(metav1.Object); ok && o != any(ns) && m.GetNamespace() != ns.Name {
			t.Errorf("%T %s is not in namespace %s (%q)", o, m.GetName(), ns.Name, m.GetNamespace())
		}
	}
}

func checkRestrictedPod(t *testing.T, eval policy.Evaluator, lv psapi.LevelVersion, d *appsv1.Deployment) {
	t.Helper()
	pod := d.Spec.Template
	agg := policy.AggregateCheckResults(eval.EvaluatePod(lv, &pod.ObjectMeta, &pod.Spec))
	if !agg.Allowed {
		t.Errorf("%s: Pod Security restricted forbids its pods: %s", d.Name, agg.ForbiddenDetail())
	}
	mounts := map[string]string{} // path → volume
	for _, c := range pod.Spec.Containers {
		sc := c.SecurityContext
		if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem {
			t.Errorf("%s/%s: the root filesystem is writable", d.Name, c.Name)
		}
		_, tag, _ := strings.Cut(c.Image, ":")
		if (tag == "" || tag == "latest") && !strings.Contains(c.Image, "@sha256:") {
			t.Errorf("%s/%s: image %q is not pinned to a tag", d.Name, c.Name, c.Image)
		}
		if c.Resources.Limits.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
			t.Errorf("%s/%s: no CPU or memory limit", d.Name, c.Name)
		}
		for _, m := range c.VolumeMounts {
			mounts[m.MountPath] = m.Name
		}
	}
	empty := map[string]bool{}
	for _, v := range pod.Spec.Volumes {
		empty[v.Name] = v.EmptyDir != nil
	}
	// HOME (the image's data dir) and /tmp: LibreOffice writes its profile
	// and temporary files there.
	for _, path := range []string{"/var/lib/dragoman", "/tmp"} {
		if v, ok := mounts[path]; !ok || !empty[v] {
			t.Errorf("%s: no emptyDir volume on %s", d.Name, path)
		}
	}
}

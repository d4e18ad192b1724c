package ports_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dragoman-translate/dragoman/"

// goList runs go list with args and returns the fields of its output.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", args, err, out)
	}
	return strings.Fields(string(out))
}

// TestCoreImportsNoAdapter keeps the hexagon: nothing under core/ may
// depend on adapters/ or app/, directly or through another package, and of
// plugins/ only on the SDK's leaf packages (see TestCoreImportsOnlySDKLeaves).
func TestCoreImportsNoAdapter(t *testing.T) {
	for _, p := range goList(t, "-deps", "-f", "{{.ImportPath}}", module+"core/...") {
		for _, outer := range []string{"adapters/", "app"} {
			if strings.HasPrefix(p, module+outer) {
				t.Errorf("core depends on %s", p)
			}
		}
	}
}

// TestCoreImportsOnlySDKLeaves lets core import the concepts it shares with
// the plugins from their one owner, the SDK, as a host imports its own
// plugin SDK; but only the SDK's leaf packages, which depend on nothing but
// the standard library and each other. The SDK's root (go-plugin, gRPC) and
// its protocol stay the plugin host's business (adapters/pluginhost).
func TestCoreImportsOnlySDKLeaves(t *testing.T) {
	leaf := map[string]bool{}
	var used []string
	for _, p := range goList(t, "-deps", "-f", "{{.ImportPath}}", module+"core/...") {
		if !strings.HasPrefix(p, module+"plugins/") {
			continue
		}
		used = append(used, p)
		rest, ok := strings.CutPrefix(p, module+"plugins/sdk/")
		if !ok || strings.HasPrefix(rest, "pluginpb") {
			t.Errorf("core depends on %s: only the SDK's leaf packages (plugins/sdk/<leaf>) may be imported", p)
			continue
		}
		leaf[p] = true
	}
	for p := range leaf {
		for _, d := range goList(t, "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", p) {
			if d != p && !leaf[d] {
				t.Errorf("%s, which core imports, depends on %s: an SDK leaf package imports only the standard library and other leaves", p, d)
			}
		}
	}
	if len(used) == 0 {
		t.Error("core imports no SDK leaf package: the shared concepts (tagged text, languages, formats) have lost their owner")
	}
	t.Logf("core imports %v", used)
}

// TestHostImportsNoPluginInsides keeps the arrows between host and plugins
// one way: the host (app/, adapters/) talks to a plugin through the SDK
// and its protocol only, never through a plugin's own packages (a
// converter's pool, an engine's client), which it would otherwise have to
// be rebuilt with.
func TestHostImportsNoPluginInsides(t *testing.T) {
	for _, p := range goList(t, "-deps", "-f", "{{.ImportPath}}", module+"app/...", module+"adapters/...") {
		if strings.HasPrefix(p, module+"plugins/") && p != module+"plugins/sdk" && !strings.HasPrefix(p, module+"plugins/sdk/") {
			t.Errorf("the host depends on %s: reach plugins through plugins/sdk and the plugin protocol", p)
		}
	}
}

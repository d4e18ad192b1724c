package sdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/dragoman-translate/dragoman/"

// A plugin compiles against the SDK alone: neither plugins/sdk nor any
// plugin under plugins/ may depend on the host's core or adapters, so a
// change inside the host cannot break a plugin's build.
func TestPluginsDependOnNoCoreOrAdapter(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}", module+"plugins/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := strings.Fields(string(out))
	if len(pkgs) < 10 {
		t.Fatalf("go list found only %v", pkgs)
	}
	checked := 0
	for _, pkg := range pkgs {
		deps, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, d := range strings.Fields(string(deps)) {
			if strings.HasPrefix(d, module+"core/") || strings.HasPrefix(d, module+"adapters/") ||
				d == module+"core" || d == module+"adapters" {
				t.Errorf("%s depends on %s", pkg, d)
			}
		}
		checked++
	}
	for _, must := range []string{"plugins/sdk", "plugins/sdk/tagged", "plugins/example", "plugins/apertium", "plugins/libreoffice"} {
		found := false
		for _, p := range pkgs {
			found = found || p == module+must
		}
		if !found {
			t.Errorf("go list did not list %s", must)
		}
	}
	t.Logf("%d packages under plugins/ checked", checked)
}

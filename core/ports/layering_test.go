package ports_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestCoreImportsNoAdapter keeps the hexagon: nothing under core/ may
// depend on adapters/, plugins/ or app/, directly or through another package.
func TestCoreImportsNoAdapter(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "github.com/dragoman-translate/dragoman/core/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const mod = "github.com/dragoman-translate/dragoman/"
	for _, p := range strings.Fields(string(out)) {
		for _, outer := range []string{"adapters/", "plugins/", "app"} {
			if strings.HasPrefix(p, mod+outer) {
				t.Errorf("core depends on %s", p)
			}
		}
	}
}

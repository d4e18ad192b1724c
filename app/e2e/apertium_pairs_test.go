package e2e

import (
	"os"
	"path/filepath"
	"testing"
)

// makeDepsModes are the Apertium modes of the four pair packages `make
// deps` installs (en↔es, en↔ca, en↔gl, es↔fr). A machine may have more,
// up to every pair Debian ships (Urdu, a right-to-left target, among
// them): tests that depend on which pairs are served give the Apertium
// plugin exactly these.
var makeDepsModes = []string{"eng-spa", "spa-eng", "eng-cat", "cat-eng", "en-gl", "gl-en", "fr-es", "es-fr"}

// apertiumModes is the environment that makes the Apertium plugin serve
// exactly the given installed modes: DRAGOMAN_APERTIUM_DIR pointing at a
// folder of copies of their mode files (which name the installed data by
// absolute path).
func apertiumModes(t testing.TB, modes ...string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "modes"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, m := range modes {
		var b []byte
		var err error
		for _, share := range []string{"/usr/share/apertium", "/usr/local/share/apertium"} {
			if b, err = os.ReadFile(filepath.Join(share, "modes", m+".mode")); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("Apertium mode %s is not installed (make deps installs it): %v", m, err)
		}
		if err := os.WriteFile(filepath.Join(dir, "modes", m+".mode"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return "DRAGOMAN_APERTIUM_DIR=" + dir
}

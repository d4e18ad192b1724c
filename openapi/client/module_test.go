package client

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's "From another module" lines, run as written in a temporary
// folder beside which the repository stands in for the clone: the
// example builds as a module of its own, through a replace directive, and
// needs none of the server's dependencies.
func TestSDKFromAnotherModule(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)\\*\\*From another module\\.\\*\\*.*?```sh\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README.md has no \"From another module\" shell block")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := "set -euo pipefail\n" + strings.ReplaceAll(string(m[1]), "../dragoman", root)
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	// Outside this module and any workspace; modules from the proxy (or
	// the cache) as a user's machine would get them.
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the README's lines fail:\n%s\n%v\n%s", script, err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "translate", "translate")); err != nil {
		t.Fatalf("no program built: %v", err)
	}
	gomod, err := os.ReadFile(filepath.Join(dir, "translate", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, server := range []string{"go.uber.org/fx", "github.com/danielgtaylor/huma", "github.com/hashicorp/go-plugin", "modernc.org/sqlite", "k8s.io/"} {
		if strings.Contains(string(gomod), server) {
			t.Errorf("the SDK user's go.mod requires %s, a dependency of the server:\n%s", server, gomod)
		}
	}
}

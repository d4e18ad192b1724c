package deploy

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/moby/patternmatcher"
	"github.com/moby/patternmatcher/ignorefile"
)

// The build context, as Docker's own .dockerignore matcher
// (moby/patternmatcher) draws it from the repository root: everything
// `make build` reads (the Go sources, go.mod, go.sum, the Makefile and the
// files the packages embed) and none of .git, bin/, the test data or the
// tests.
func TestDockerignore(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(root, ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	patterns, err := ignorefile.ReadAll(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	pm, err := patternmatcher.New(patterns)
	if err != nil {
		t.Fatal(err)
	}
	excluded := func(rel string) bool {
		ok, err := pm.MatchesOrParentMatches(filepath.ToSlash(rel))
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	// What the build needs: every non-test Go file of the module's packages
	// and what they embed, as `go list` says.
	out, err := exec.Command("go", "list", "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}
{{end}}{{range .EmbedFiles}}{{$d}}/{{.}}
{{end}}`, "../../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	need := append(strings.Fields(string(out)), filepath.Join(root, "go.mod"), filepath.Join(root, "go.sum"), filepath.Join(root, "Makefile"))
	for _, p := range need {
		rel, _ := filepath.Rel(root, p)
		if excluded(rel) {
			t.Errorf("the build needs %s, which .dockerignore leaves out", rel)
		}
	}
	for _, rel := range []string{".git", ".git/HEAD", "bin/dragoman", "testdata/e2e/english.docx", "adapters/rtl/testdata/x.docx", "app/e2e/e2e_test.go", ".dragoman/dragoman.db"} {
		if !excluded(rel) {
			t.Errorf("%s is in the build context", rel)
		}
	}
	// The whole context, measured: the sources, not 20 MB of documents.
	var size int64
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if rel == "." {
			return nil
		}
		if excluded(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if info, err := d.Info(); err == nil && !d.IsDir() {
			size += info.Size()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("build context: %.1f MB", float64(size)/1e6)
	if size > 8<<20 {
		t.Errorf("the build context is %.1f MB", float64(size)/1e6)
	}
}

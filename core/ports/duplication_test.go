package ports_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// sharedRun is how many identical lines in a row make a copy: long enough
// that a few lines of boilerplate alike by chance never reach it.
const sharedRun = 20

// sourceLine is one non-blank line of a Go file, trimmed, with where it is.
type sourceLine struct {
	text string
	file string
	line int
}

// readSource reads the non-test, hand-written .go files under root as
// trimmed, non-blank lines, one slice per file.
func readSource(t *testing.T, root string) [][]sourceLine {
	t.Helper()
	var files [][]sourceLine
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		var lines []sourceLine
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			s := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(s, "// Code generated ") && strings.HasSuffix(s, " DO NOT EDIT.") {
				return nil // generated: not a copy anyone keeps by hand
			}
			if s != "" {
				lines = append(lines, sourceLine{s, path, n})
			}
		}
		files = append(files, lines)
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// window joins sharedRun lines from i on.
func window(lines []sourceLine, i int) string {
	parts := make([]string, sharedRun)
	for k := range parts {
		parts[k] = lines[i+k].text
	}
	return strings.Join(parts, "\n")
}

// TestNoConceptKeptInBothCoreAndPlugins fails when a run of sharedRun or
// more identical lines stands in both core/ and plugins/ outside tests: a
// concept the host and the plugins share has one owner, the SDK's leaf
// package, and core imports it instead of keeping a copy.
func TestNoConceptKeptInBothCoreAndPlugins(t *testing.T) {
	core := readSource(t, filepath.Join("..", "..", "core"))
	plugins := readSource(t, filepath.Join("..", "..", "plugins"))
	if len(core) < 20 || len(plugins) < 20 {
		t.Fatalf("read %d files under core/ and %d under plugins/: wrong directory?", len(core), len(plugins))
	}
	seen := map[string]sourceLine{}
	for _, lines := range core {
		for i := 0; i+sharedRun <= len(lines); i++ {
			seen[window(lines, i)] = lines[i]
		}
	}
	copies := 0
	for _, lines := range plugins {
		for i := 0; i+sharedRun <= len(lines); i++ {
			c, ok := seen[window(lines, i)]
			if !ok {
				continue
			}
			copies++
			t.Errorf("%s:%d repeats %s:%d for %d lines or more: keep the concept once, in the SDK's leaf package, and import it",
				lines[i].file, lines[i].line, c.file, c.line, sharedRun)
			// Skip to the end of this run so one copy is reported once.
			for i+sharedRun < len(lines) {
				if _, more := seen[window(lines, i+1)]; !more {
					break
				}
				i++
			}
			i += sharedRun - 1
		}
	}
	if copies > 0 {
		t.Logf("%d copied runs", copies)
	}
}

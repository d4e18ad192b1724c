package ports_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxFileLines is the most lines a hand-written Go file may hold (issue
// 24): past it a file is doing more than one job and is split by concern.
const maxFileLines = 450

// TestNoHandWrittenFileOverTheLimit walks the repository's Go files, tests
// included, and fails for each hand-written one longer than maxFileLines.
// Generated files (the "Code generated … DO NOT EDIT." header) are exempt.
func TestNoHandWrittenFileOverTheLimit(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules" || name == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		n, generated, err := countLines(path)
		if err != nil {
			return err
		}
		if !generated && n > maxFileLines {
			t.Errorf("%s has %d lines; split it by concern (at most %d)", path, n, maxFileLines)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// countLines counts path's lines and says whether it is generated.
func countLines(path string) (int, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<22)
	n, generated := 0, false
	for sc.Scan() {
		n++
		if s := sc.Text(); strings.HasPrefix(s, "// Code generated ") && strings.HasSuffix(s, " DO NOT EDIT.") {
			generated = true
		}
	}
	return n, generated, sc.Err()
}

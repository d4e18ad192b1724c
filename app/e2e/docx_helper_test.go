package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// docxFrom writes a copy of english.docx, named name in a temporary
// directory, whose body (what stands before the section properties) is
// what body makes of english.docx's. edit changes other parts by name; a
// part english.docx lacks is added, made from "".
func docxFrom(t *testing.T, name string, body func(old string) string, edit map[string]func(string) string) string {
	t.Helper()
	zr, err := zip.OpenReader(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	seen := map[string]bool{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if f.Name == "word/document.xml" {
			start := strings.Index(s, "<w:body>") + len("<w:body>")
			end := strings.Index(s, "<w:sectPr")
			s = s[:start] + body(s[start:end]) + s[end:]
		}
		if e := edit[f.Name]; e != nil {
			s = e(s)
		}
		seen[f.Name] = true
		w, _ := zw.Create(f.Name)
		io.WriteString(w, s)
	}
	var added []string
	for n := range edit {
		if !seen[n] {
			added = append(added, n)
		}
	}
	slices.Sort(added)
	for _, n := range added {
		w, _ := zw.Create(n)
		io.WriteString(w, edit[n](""))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// withBody is a body function that puts body in place of english.docx's.
func withBody(body string) func(string) string {
	return func(string) string { return body }
}

// docxPart reads one part of a package.
func docxPart(t *testing.T, docx []byte, name string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			b, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			return b
		}
	}
	return nil
}

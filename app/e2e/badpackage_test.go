package e2e

import (
	"archive/zip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// withEntries is a copy of the .docx at path with extra raw entries.
func withEntries(t *testing.T, path string, extra ...[2]string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := filepath.Join(t.TempDir(), "extra.docx")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, e := range zr.File {
		if err := zw.Copy(e); err != nil {
			t.Fatal(err)
		}
	}
	for _, e := range extra {
		w, _ := zw.Create(e[0])
		io.WriteString(w, e[1])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBadPackagesAreRefusedAtUpload: a package the pipeline cannot parse
// (a DTD in styles.xml, nesting past 4,096) or that could write outside a
// folder (an entry twice, "../", an absolute name, a backslash) is 422 at
// once, naming the part, and no job is made (issue 26: the first two
// failed at layout after ten attempts, ~18 s; the others were copied into
// the translated .docx).
func TestBadPackagesAreRefusedAtUpload(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	deep := strings.Repeat("<w:tbl><w:tr><w:tc>", 1400) + "<w:p/>" + strings.Repeat("</w:tc></w:tr></w:tbl>", 1400)
	dtd := func(s string) string {
		return strings.Replace(s, "?>", `?><!DOCTYPE w:styles [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>`, 1)
	}
	for _, tc := range []struct{ name, path, says string }{
		{"DTD in styles.xml", docxFrom(t, "dtd.docx", func(b string) string { return b }, map[string]func(string) string{"word/styles.xml": dtd}), "word/styles.xml"},
		{"nesting past 4096", docxFrom(t, "deep.docx", withBody(deep), nil), "word/document.xml"},
		{"document.xml twice", withEntries(t, englishDocx, [2]string{"word/document.xml", "<w:document/>"}), "word/document.xml"},
		{"../ entry", withEntries(t, englishDocx, [2]string{"../../evil.xml", "x"}), "../../evil.xml"},
		{"absolute entry", withEntries(t, englishDocx, [2]string{"/tmp/evil.xml", "x"}), "/tmp/evil.xml"},
		{"backslash entry", withEntries(t, englishDocx, [2]string{`word\..\..\evil.xml`, "x"}), "evil.xml"},
	} {
		start := time.Now()
		r := s.uploadFile(key, tc.path, map[string]string{"target_lang": "Arabic", "source_lang": "English"})
		if r.status != 422 || !contains(r.body, tc.says) || time.Since(start) > 10*time.Second {
			t.Errorf("%s: %d %s after %s, want 422 naming %s at once", tc.name, r.status, r.body, time.Since(start), tc.says)
		}
	}
	if jobs := s.do("GET", "/v1/jobs", key, nil, "").json(t)["jobs"].([]any); len(jobs) != 0 {
		t.Errorf("refused packages made %d jobs", len(jobs))
	}
	// The package they were made from translates.
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English"})
	if r.status != 202 {
		t.Fatalf("clean package: %d %s", r.status, r.body)
	}
	if j := s.waitJob(key, r.json(t)["job_id"].(string), 2*time.Minute); j["status"] != "completed" {
		t.Errorf("clean package: %v", j)
	}
}

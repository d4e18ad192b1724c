package structure

import (
	"archive/zip"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// doc is the path of a corpus document, which lives in docx/ or rtl/ of
// the shared test corpus.
func doc(name string) string {
	p := filepath.Join("../../../testdata/corpus/docx", name)
	if _, err := os.Stat(p); err != nil {
		return filepath.Join("../../../testdata/corpus/rtl", name)
	}
	return p
}

func TestSameDocumentLosesNothing(t *testing.T) {
	r, err := Compare(doc("aspose-Rendering.docx"), doc("aspose-Rendering.docx"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Lost() {
		t.Fatal(r.Summary())
	}
	s := r.Source
	if s.Tables == 0 || s.MaxTableDepth < 2 || s.Hyperlinks == 0 || s.Footnotes == 0 || s.TextBoxes == 0 || s.Sections < 2 || s.FormatSpans == 0 {
		t.Fatalf("structure not counted: %+v", s)
	}
}

func TestDifferentDocumentsLose(t *testing.T) {
	r, err := Compare(doc("aspose-Nested_tables.docx"), doc("aspose-Hyperlinks.docx"))
	if err != nil {
		t.Fatal(err)
	}
	if !r.Lost() {
		t.Fatalf("no loss reported: %s", r.Summary())
	}
	var b strings.Builder
	r.Print(&b)
	if !strings.Contains(b.String(), "LOST: table nesting depth") {
		t.Fatalf("report:\n%s", b.String())
	}
}

// rewrite copies a package with one edit to word/document.xml.
func rewrite(t *testing.T, path string, edit func(string) string) []byte {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, _ := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		if f.Name != "word/document.xml" {
			zw.Copy(f)
			continue
		}
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		w, _ := zw.Create(f.Name)
		io.WriteString(w, edit(string(b)))
	}
	zw.Close()
	return buf.Bytes()
}

func TestLostFormattingAndLinks(t *testing.T) {
	path := doc("aspose-Hyperlinks.docx")
	src, _ := os.ReadFile(path)
	for name, edit := range map[string]func(string) string{
		"bold": func(s string) string { return strings.ReplaceAll(s, "<w:b/>", "") },
		"hyperlink": func(s string) string { // the first link becomes a plain wrapper
			i := strings.Index(s, "<w:hyperlink ")
			j := i + strings.Index(s[i:], "</w:hyperlink>")
			return s[:i] + "<w:customXml " + s[i+len("<w:hyperlink "):j] + "</w:customXml>" + s[j+len("</w:hyperlink>"):]
		},
	} {
		out := rewrite(t, path, edit)
		r, err := CompareReaders(bytes.NewReader(src), int64(len(src)), bytes.NewReader(out), int64(len(out)))
		if err != nil {
			t.Fatal(err)
		}
		if !r.Lost() {
			t.Errorf("%s removed, no loss reported: %s", name, r.Summary())
		}
	}
}

package docx

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/segment"
)

// The base text of a ruby (Japanese 東京 under its reading とうきょう) is
// translated; the reading is kept as it was, and the ruby stays whole.
func TestRubyBaseTranslated(t *testing.T) {
	doc, data := extractFile(t, corpusDir+"/docx/tika-testWORD_phonetic.docx")
	var sources []string
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { sources = append(sources, s.Source) })
	joined := strings.Join(sources, "|")
	if !strings.Contains(joined, "東京") || strings.Contains(joined, "とうきょう") {
		t.Fatalf("segments %q: want the base 東京 and not the reading", sources)
	}
	out, warns := translate(t, data, doc, func(s string) string { return strings.ReplaceAll(s, "東京", "Tokyo") })
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
	wellFormed(t, "phonetic", out)
	d := partText(t, out, "word/document.xml")
	ruby := regexp.MustCompile(`<w:r>(?:<w:rPr>.*?</w:rPr>)?<w:ruby><w:rubyPr>.*?</w:rubyPr><w:rt>(.*?)</w:rt><w:rubyBase>(.*?)</w:rubyBase></w:ruby></w:r>`).FindStringSubmatch(d)
	if ruby == nil {
		t.Fatalf("no whole ruby in the output:\n%s", d)
	}
	if !strings.Contains(ruby[1], ">とうきょう<") {
		t.Errorf("reading changed: %s", ruby[1])
	}
	if !strings.Contains(ruby[2], ">Tokyo<") || strings.Contains(d, "東京") {
		t.Errorf("base not translated: %s", ruby[2])
	}
}

func partText(t *testing.T, pkg []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, _ := f.Open()
			b, _ := io.ReadAll(rc)
			rc.Close()
			return string(b)
		}
	}
	t.Fatalf("no part %s", name)
	return ""
}

package e2e

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// notePart names the parts around the body: headers, footers, footnotes,
// endnotes and comments.
var notePart = regexp.MustCompile(`^word/(header\d*|footer\d*|footnotes|endnotes|comments)\.xml$`)

// Headers, footers, footnotes, endnotes and comments of the bilingual
// document are translated exactly as in the target-only output (the same
// parts, byte for byte, laid out right to left for Arabic), and a note is
// referenced once, from the translation column.
func TestBilingualHeadersFootersNotes(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	// english: text of the source's parts that must not be left in them.
	docs := map[string][]string{
		"tika-testWORD_various.docx": {"This is the header text", "This is the footer text", "This is a footnote"},
		"pandoc-comments.docx":       {"I left a comment", "Do something else"},
	}
	ids := map[string]string{}
	for name := range docs {
		r := s.uploadFile(key, corpusDocs(t, name)[0], map[string]string{"target_lang": "Arabic", "source_lang": "English", "bilingual": "true"})
		if r.status != 202 {
			t.Fatalf("%s: %d %s", name, r.status, r.body)
		}
		ids[name] = r.json(t)["job_id"].(string)
	}
	for name, english := range docs {
		id := ids[name]
		if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" || j["bilingual_url"] == nil {
			t.Fatalf("%s: job %v", name, j)
		}
		target := docxPartsOf(t, s.getPatiently("/v1/jobs/"+id+"/download", key).body)
		bilingual := docxPartsOf(t, s.getPatiently("/v1/jobs/"+id+"/download?format=bilingual", key).body)
		var around []string
		for part, b := range target {
			if !notePart.MatchString(part) {
				continue
			}
			around = append(around, part)
			if got, ok := bilingual[part]; !ok || string(got) != string(b) {
				t.Errorf("%s: %s differs from the target-only output's (present %v)", name, part, ok)
			}
		}
		for part := range bilingual {
			if _, ok := target[part]; notePart.MatchString(part) && !ok {
				t.Errorf("%s: %s is only in the bilingual document", name, part)
			}
		}
		// And they are translated, right to left: no source sentence left,
		// Arabic text in runs marked right to left.
		var text strings.Builder
		rtl := false
		for _, part := range around {
			x := string(bilingual[part])
			text.WriteString(xmlTag.ReplaceAllString(x, " "))
			rtl = rtl || strings.Contains(x, "<w:rtl/>") // right-to-left runs; the paragraphs take w:bidi from the document defaults
		}
		for _, e := range english {
			if strings.Contains(text.String(), e) {
				t.Errorf("%s: %q is left untranslated around the body", name, e)
			}
		}
		if len(around) < 3 || !hasArabicScript(text.String()) || !rtl {
			t.Errorf("%s: parts around the body %v, Arabic %v, right to left %v", name, around, hasArabicScript(text.String()), rtl)
		}
		// The notes are referenced from the translation column only.
		doc, err := ooxml.Parse(bilingual["word/document.xml"])
		if err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"footnoteReference", "endnoteReference", "commentReference"} {
			var cols [2]int
			for _, tbl := range doc.RootElem().Child("body").ChildrenW("tbl") {
				for _, tr := range tbl.ChildrenW("tr") {
					for i, tc := range tr.ChildrenW("tc") {
						cols[i] += len(tc.FindAllW(ref))
					}
				}
			}
			if want := strings.Count(string(target["word/document.xml"]), "<w:"+ref+" "); cols[0] != 0 || cols[1] != want {
				t.Errorf("%s: %s: %d in the source column, %d in the translation's, want 0 and %d (the target-only output's)", name, ref, cols[0], cols[1], want)
			}
		}
	}
}

// docxPartsOf reads every part of a package in memory.
func docxPartsOf(t *testing.T, docx []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatalf("not a .docx: %v", err)
	}
	parts := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		parts[f.Name], err = io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
	}
	return parts
}

package docx_test

import (
	"archive/zip"
	"bytes"
	"io"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func part(t *testing.T, pkg []byte, name string) string {
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

func all(re, s string) []string {
	m := regexp.MustCompile(re).FindAllStringSubmatch(s, -1)
	out := make([]string, len(m))
	for i, x := range m {
		out[i] = x[1]
	}
	sort.Strings(out)
	return out
}

// Field instructions and deleted text are never translated; inserted text is.
func TestFieldsAndTrackedChanges(t *testing.T) {
	for _, name := range []string{"poi-delins.docx", "oxpt-RP001-Tracked-Revisions-01.docx", "pandoc-instrText_hyperlink.docx", "aspose-Table_of_contents.docx"} {
		src, out, _ := assemble(t, doc(name), pseudo)
		s, o := part(t, src, "word/document.xml"), part(t, out, "word/document.xml")
		for _, re := range []string{`<w:instrText[^>]*>([^<]*)<`, `<w:delText[^>]*>([^<]*)<`, `w:instr="([^"]*)"`} {
			if a, b := all(re, s), all(re, o); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
				t.Errorf("%s: %s changed:\n%q\n%q", name, re, a, b)
			}
		}
		if strings.Contains(s, "<w:ins ") {
			ins := all(`(?s)<w:ins [^>]*>(.*?)</w:ins>`, o)
			if !strings.Contains(strings.Join(ins, ""), "ж") {
				t.Errorf("%s: inserted text not translated", name)
			}
		}
	}
}

// A document with a table of contents asks Word to update fields on open.
func TestTOCUpdatesFieldsOnOpen(t *testing.T) {
	src, out, _ := assemble(t, doc("aspose-Table_of_contents.docx"), pseudo)
	if strings.Contains(part(t, src, "word/settings.xml"), "updateFields") {
		t.Fatal("source already has updateFields")
	}
	if !strings.Contains(part(t, out, "word/settings.xml"), `<w:updateFields w:val="true"/>`) {
		t.Fatal("updateFields not added")
	}
	_, out, _ = assemble(t, doc("aspose-Hyperlinks.docx"), pseudo)
	if strings.Contains(part(t, out, "word/settings.xml"), "updateFields") {
		t.Fatal("updateFields added without a TOC")
	}
}

// Text boxes are translated, and the DrawingML box and its VML fallback
// say the same thing.
func TestTextBoxesConsistent(t *testing.T) {
	_, out, _ := assemble(t, doc("aspose-TextBoxes.docx"), pseudo)
	d := part(t, out, "word/document.xml")
	choice := all(`(?s)<mc:Choice.*?<w:txbxContent>(.*?)</w:txbxContent>`, d)
	fallback := all(`(?s)<mc:Fallback.*?<w:txbxContent>(.*?)</w:txbxContent>`, d)
	if len(choice) == 0 || len(choice) != len(fallback) {
		t.Fatalf("text boxes: %d choice, %d fallback", len(choice), len(fallback))
	}
	text := func(x string) string { return strings.Join(all(`<w:t[^>]*>([^<]*)<`, x), "|") }
	for i := range choice {
		if text(choice[i]) != text(fallback[i]) || !strings.Contains(text(choice[i]), "ж") {
			t.Errorf("box %d: %q vs %q", i, text(choice[i]), text(fallback[i]))
		}
	}
}

// Alt text and document properties are translated; file names are not.
func TestAltTextAndProperties(t *testing.T) {
	_, out, _ := assemble(t, doc("docx4j-Docx4j_GettingStarted.docx"), pseudo)
	descr := all(`descr="([^"]*)"`, part(t, out, "word/document.xml"))
	if !strings.Contains(strings.Join(descr, " "), "ж") {
		t.Errorf("alt text not translated: %q", descr)
	}
	_, out, _ = assemble(t, doc("aspose-Big_document.docx"), pseudo)
	for _, d := range all(`descr="([^"]*)"`, part(t, out, "word/document.xml")) {
		if strings.Contains(d, "ж") {
			t.Errorf("file name alt text translated: %q", d)
		}
	}
	_, out, _ = assemble(t, doc("aspose-Formatted_elements.docx"), pseudo)
	if title := all(`<dc:title>([^<]*)<`, part(t, out, "docProps/core.xml")); len(title) != 1 || !strings.Contains(title[0], "ж") {
		t.Errorf("title not translated: %q", title)
	}
}

// Hyperlink targets and bookmark names are identical after translation.
func TestHyperlinksAndBookmarksKept(t *testing.T) {
	for _, name := range []string{"aspose-Hyperlinks.docx", "mammoth-footnote-hyperlink.docx", "aspose-Big_document.docx"} {
		src, out, _ := assemble(t, doc(name), pseudo)
		for _, p := range []string{"word/document.xml", "word/_rels/document.xml.rels"} {
			s, o := part(t, src, p), part(t, out, p)
			for _, re := range []string{`<w:hyperlink ([^>]*)>`, `w:name="([^"]*)"`, `Target="([^"]*)"`} {
				if a, b := all(re, s), all(re, o); strings.Join(a, "\x00") != strings.Join(b, "\x00") {
					t.Errorf("%s %s: %s changed", name, p, re)
				}
			}
		}
	}
}

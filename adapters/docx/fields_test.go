package docx_test

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/docx"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// An Arabic report's captions and table of contents, as Word writes them:
// a TOC field whose result spans three paragraphs (entries linked to
// _Toc bookmarks, page numbers from PAGEREF), a caption "جدول" with the
// chapter number (STYLEREF \s) and a SEQ number, one with its SEQ in a
// w:fldSimple, and a label with its number alone.
func captionsDocx(t *testing.T) []byte {
	t.Helper()
	r := func(s string) string {
		return `<w:r><w:rPr><w:rtl/></w:rPr><w:t xml:space="preserve">` + s + `</w:t></w:r>`
	}
	field := func(instr, result string) string {
		return `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ` + instr + ` </w:instrText></w:r>` +
			`<w:r><w:fldChar w:fldCharType="separate"/></w:r>` + r(result) + `<w:r><w:fldChar w:fldCharType="end"/></w:r>`
	}
	para := func(style, content string) string {
		return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/><w:bidi/></w:pPr>` + content + `</w:p>`
	}
	entry := func(anchor, text, page string) string {
		return `<w:hyperlink w:anchor="` + anchor + `">` + r(text) + `<w:r><w:tab/></w:r>` + field(`PAGEREF `+anchor+` \h`, page) + `</w:hyperlink>`
	}
	body := para("TOC1", `<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> TOC \o "1-3" \h \z \u </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>`+
		entry("_Toc1", "مقدمة التقرير", "4")) +
		para("TOC1", entry("_Toc2", "نتائج الدراسة", "7")) +
		para("Normal", `<w:r><w:fldChar w:fldCharType="end"/></w:r>`) +
		para("Heading1", `<w:bookmarkStart w:id="1" w:name="_Toc1"/>`+r("مقدمة التقرير")+`<w:bookmarkEnd w:id="1"/>`) +
		para("Caption", r("جدول ")+field(`STYLEREF 1 \s`, "5")+r("-")+field(`SEQ جدول \* ARABIC \s 1`, "1")+r(" نتائج الدراسة")) +
		para("Caption", r("شكل ")+`<w:fldSimple w:instr=" SEQ شكل \* ARABIC ">`+r("2")+`</w:fldSimple>`+r(": خريطة المدينة")) +
		para("Caption", r("جدول ")+field(`SEQ جدول \* ARABIC`, "3"))
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for name, content := range map[string]string{
		"[Content_Types].xml": `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `<w:sectPr><w:bidi/></w:sectPr></w:body></w:document>`,
	} {
		w, _ := zw.Create(name)
		w.Write([]byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// toEnglish is a word-for-word engine for the captions document.
func toEnglish(src string) string {
	out := src
	for _, w := range [][2]string{{"مقدمة التقرير", "Report introduction"}, {"نتائج الدراسة", "Study results"}, {"خريطة المدينة", "City map"}, {"جدول", "Table"}, {"شكل", "Figure"}} {
		out = strings.ReplaceAll(out, w[0], w[1])
	}
	return out
}

var (
	wText  = regexp.MustCompile(`<w:t(?: [^>]*)?>([^<]*)</w:t>`)
	instrs = regexp.MustCompile(`<w:instrText[^>]*>([^<]*)</w:instrText>|w:instr="([^"]*)"`)
)

// Caption labels and table-of-contents entries are translated; the
// numbers Word computes (SEQ, STYLEREF \s, PAGEREF) are not text to
// translate, so no engine can move a label into a field's result, where
// Word's next field update replaces it (the label came out as "3 " before
// the field and "Table" as its result); the fields' codes and identifiers
// stay as written.
func TestCaptionsAndContentsTranslated(t *testing.T) {
	src := captionsDocx(t)
	out, sources := translateCaptions(t, src, toEnglish)
	for _, computed := range []string{">5<", ">1<", ">3<", ">2<", ">4<", ">7<"} {
		if strings.Contains(sources, computed) {
			t.Errorf("a computed field result %s is sent for translation:\n%s", computed, sources)
		}
	}
	var paras []string
	for _, p := range regexp.MustCompile(`(?s)<w:p>.*?</w:p>`).FindAllString(out, -1) {
		var text strings.Builder
		for _, m := range wText.FindAllStringSubmatch(p, -1) {
			text.WriteString(m[1])
		}
		paras = append(paras, strings.Join(strings.Fields(text.String()), " "))
	}
	want := []string{"Report introduction4", "Study results7", "", "Report introduction", "Table 5-1 Study results", "Figure 2: City map", "Table 3"}
	if strings.Join(paras, "|") != strings.Join(want, "|") {
		t.Errorf("paragraphs %q,\nwant %q", paras, want)
	}
	// The fields, codes and identifiers as written.
	var gotInstr []string
	for _, m := range instrs.FindAllStringSubmatch(out, -1) {
		gotInstr = append(gotInstr, strings.TrimSpace(m[1]+m[2]))
	}
	wantInstr := []string{`TOC \o "1-3" \h \z \u`, `PAGEREF _Toc1 \h`, `PAGEREF _Toc2 \h`, `STYLEREF 1 \s`, `SEQ جدول \* ARABIC \s 1`, `SEQ شكل \* ARABIC`, `SEQ جدول \* ARABIC`}
	if strings.Join(gotInstr, "|") != strings.Join(wantInstr, "|") {
		t.Errorf("field codes %q, want %q", gotInstr, wantInstr)
	}
	// An engine that reorders the words keeps every number in its field:
	// before, it put the label "Table" in the SEQ field's result and the
	// number before the field.
	out, _ = translateCaptions(t, src, func(s string) string { return toEnglish(reverse(s)) })
	if got := strings.Join(fieldResults(out), "|"); got != "4|7|5|1|3" {
		t.Errorf("complex fields' results %q, want the numbers as written", got)
	}
	if !fieldsNest([]byte(out)) {
		t.Error("fields out of order")
	}
}

// translateCaptions translates src with engine: the laid-out main part
// and the segments' sources.
func translateCaptions(t *testing.T, src []byte, engine func(string) string) (out, sources string) {
	t.Helper()
	ctx := context.Background()
	doc, err := docx.ExtractReader(ctx, bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var srcs []string
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		srcs = append(srcs, s.Source)
		s.Target = engine(s.Source)
	})
	var buf bytes.Buffer
	if _, err := docx.AssembleReader(ctx, bytes.NewReader(src), int64(len(src)), doc, &buf); err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("DRAGOMAN_DOCX_KEEP"); keep != "" {
		os.WriteFile(filepath.Join(keep, "captions.en.docx"), buf.Bytes(), 0o644)
	}
	return string(partsOf(t, buf.Bytes())["word/document.xml"]), strings.Join(srcs, "\n")
}

var fieldToken = regexp.MustCompile(`w:fldCharType="(begin|separate|end)"|<w:t(?: [^>]*)?>([^<]*)</w:t>`)

// fieldResults are the texts of the complex fields' results, in order,
// the TOC's (which holds the others) excepted.
func fieldResults(xml string) []string {
	var out []string
	var stack []*strings.Builder // per open field: its result once separated
	for _, m := range fieldToken.FindAllStringSubmatch(xml, -1) {
		switch m[1] {
		case "begin":
			stack = append(stack, nil)
		case "separate":
			stack[len(stack)-1] = &strings.Builder{}
		case "end":
			if r := stack[len(stack)-1]; r != nil && !strings.Contains(r.String(), "Report") {
				out = append(out, strings.TrimSpace(r.String()))
			}
			stack = stack[:len(stack)-1]
		default:
			for _, r := range stack {
				if r != nil {
					r.WriteString(m[2])
				}
			}
		}
	}
	return out
}

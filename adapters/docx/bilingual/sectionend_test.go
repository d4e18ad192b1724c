package bilingual

import (
	"archive/zip"
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// minimalDocx is a package of one part, word/document.xml, with body.
func minimalDocx(t *testing.T, body string) []byte {
	t.Helper()
	parts := map[string]string{
		"[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>` + body + `</w:body></w:document>`,
	}
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml"} {
		f, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.Write([]byte(parts[name])); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// Sections as LibreOffice writes them at a document's end: a two-column
// section, then a section of one empty paragraph, then an empty final
// section. The empty paragraphs that end a section stay paragraphs after
// its table (a section of nothing else gets no table): ending a section
// with a table costs a paragraph more, which pushed the empty last section
// of tika-testWORD_various.docx onto a blank third page in LibreOffice.
// An empty paragraph between rows stays a row; the source column keeps its
// own directions (KeepSourceDirection counts the rows as Compose made them).
func TestEmptyParagraphsEndingASectionStayParagraphs(t *testing.T) {
	sect := func(cols string) string {
		return `<w:sectPr><w:type w:val="continuous"/><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:left="1440" w:right="1440" w:top="1440" w:bottom="1440" w:header="720" w:footer="720" w:gutter="0"/>` + cols + `</w:sectPr>`
	}
	brk := func(cols string) string { return `<w:p><w:pPr>` + sect(cols) + `</w:pPr></w:p>` }
	p := func(s string) string { return `<w:p><w:r><w:t>` + s + `</w:t></w:r></w:p>` }
	empty := `<w:p><w:pPr><w:spacing w:after="200"/></w:pPr><w:r><w:rPr><w:rtl/></w:rPr></w:r></w:p>`
	numbered := `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:p>`
	src := minimalDocx(t, p("one")+brk("")+
		p("two")+empty+p("three")+empty+`<w:bookmarkStart w:id="0" w:name="b"/><w:bookmarkEnd w:id="0"/>`+empty+brk(`<w:cols w:num="2" w:space="720"/>`)+
		empty+brk("")+
		p("four")+numbered+sect(""))

	var out bytes.Buffer
	if _, err := (Composer{}).Bilingual(context.Background(), blobOf(src), blobOf(translate(t, src)), ports.LayoutRequest{}, &out); err != nil {
		t.Fatal(err)
	}
	pk, err := ooxml.Open(bytes.NewReader(out.Bytes()), int64(out.Len()))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := pk.ReadPart(pk.Main())
	doc, err := ooxml.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string // the body: T(row texts) for a table, P for a paragraph, B for a break
	for _, n := range elems(bodyOf(doc)) {
		switch {
		case n.IsW("tbl"):
			var rows []string
			for _, tr := range n.ChildrenW("tr") {
				tc := tr.ChildrenW("tc")
				rows = append(rows, text(tc[0])+"|"+text(tc[1]))
			}
			got = append(got, "T("+strings.Join(rows, ",")+")")
		case isBreak(n):
			got = append(got, "B")
		case n.IsW("p"):
			got = append(got, "P"+text(n))
		default:
			got = append(got, n.Local)
		}
	}
	want := "T(one|ONE) B T(two|TWO,|,three|THREE) P bookmarkStart bookmarkEnd P B P B T(four|FOUR,|) sectPr"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("body:\n got %s\nwant %s", g, want)
	}
	if !strings.Contains(string(b), `w:name="b"`) {
		t.Error("the bookmark between the empty paragraphs is lost")
	}
}

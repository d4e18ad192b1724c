package rtl

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// putSkeleton writes the parts of a minimal package around its
// word/document.xml: content types, relationships and styles.
func putSkeleton(b testing.TB, zw *zip.Writer) {
	put := func(name, s string) {
		w, err := zw.Create(name)
		if err != nil {
			b.Fatal(err)
		}
		io.WriteString(w, s)
	}
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`)
	put("_rels/.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`)
	put("word/_rels/document.xml.rels", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`)
	put("word/styles.xml", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Calibri" w:hAnsi="Calibri"/></w:rPr></w:rPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style></w:styles>`)
}

// largeDocx generates a package with paras paragraphs of English text
// (every tenth in a table cell, with a tblGrid if grid) and styles.
func largeDocx(b testing.TB, paras int, grid bool) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	putSkeleton(b, zw)
	var d bytes.Buffer
	d.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`)
	tblGrid := `<w:tblGrid><w:gridCol w:w="9000"/></w:tblGrid>`
	if !grid {
		tblGrid = ""
	}
	for i := 0; i < paras; i++ {
		p := fmt.Sprintf(`<w:p><w:pPr><w:jc w:val="left"/></w:pPr><w:r><w:t xml:space="preserve">Paragraph %d of the report, </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>with bold text</w:t></w:r><w:r><w:t xml:space="preserve"> and a number 1234.</w:t></w:r></w:p>`, i)
		if i%10 == 9 {
			p = `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>` + tblGrid + `<w:tr><w:tc>` + p + `</w:tc></w:tr></w:tbl>`
		}
		d.WriteString(p)
	}
	d.WriteString(`<w:sectPr><w:pgMar w:left="1440" w:right="1800"/></w:sectPr></w:body></w:document>`)
	w, err := zw.Create("word/document.xml")
	if err != nil {
		b.Fatal(err)
	}
	w.Write(d.Bytes())
	if err := zw.Close(); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// A table without the (required) tblGrid is laid out, not a crash: the
// narrow-table check read the missing grid's columns.
func TestTableWithoutGrid(t *testing.T) {
	src := largeDocx(t, 20, false)
	rep, err := New(Options{Coverage: KnownFonts{}}).Apply(context.Background(), newBlob(src), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, io.Discard)
	if err != nil || rep == nil {
		t.Fatalf("report %v, error %v", rep, err)
	}
}

func entries(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		m[f.Name] = string(data)
	}
	return m
}

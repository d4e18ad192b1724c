package corpusrender

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// docPart is a part of a built document beside its body and styles, in
// word/, with its relationship from the main part.
type docPart struct {
	name, contentType, relType, id string
	xml                            string // the whole part, without the XML declaration
}

const (
	wmlType  = "application/vnd.openxmlformats-officedocument.wordprocessingml."
	docAttrs = wNS + ` xmlns:r="` + relNS + `" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"` +
		` xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"` +
		` xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"` +
		` xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"` +
		` xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14 wps"`
	defaultSect = `<w:sectPr><w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1000" w:bottom="1440" w:left="2000" w:header="720" w:footer="720" w:gutter="0"/></w:sectPr>`
)

// write writes d as dir/NAME.docx.
func (d builtDoc) write(t *testing.T, dir string) string {
	t.Helper()
	sect := d.sect
	if sect == "" {
		sect = defaultSect
	}
	parts := append([]docPart{
		{"document.xml", wmlType + "document.main+xml", "", "", `<w:document ` + docAttrs + `><w:body>` + d.body + sect + `</w:body></w:document>`},
		{"styles.xml", wmlType + "styles+xml", "styles", "rIdStyles", `<w:styles ` + wNS + `>` + d.styles + `</w:styles>`},
	}, d.parts...)
	if d.chart != "" {
		parts = append(parts, docPart{"charts/chart1.xml", "application/vnd.openxmlformats-officedocument.drawingml.chart+xml", "chart", "rIdChart", d.chart})
	}
	ct, rels := "", ""
	for _, p := range parts {
		if p.contentType != "" {
			ct += `<Override PartName="/word/` + p.name + `" ContentType="` + p.contentType + `"/>`
		}
		if p.relType != "" {
			rels += `<Relationship Id="` + p.id + `" Type="` + relNS + `/` + p.relType + `" Target="` + p.name + `"/>`
		}
	}
	path := filepath.Join(dir, d.name+".docx")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	put := func(name, content string) {
		w, err := zw.Create(name)
		if err == nil {
			_, err = w.Write([]byte(xmlPI + content))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	put("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="png" ContentType="image/png"/>`+ct+`</Types>`)
	put("_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="`+relNS+`/officeDocument" Target="word/document.xml"/></Relationships>`)
	put("word/_rels/document.xml.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+rels+`</Relationships>`)
	for _, p := range parts {
		put("word/"+p.name, p.xml)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

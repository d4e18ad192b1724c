package rtl

import (
	"archive/zip"
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// Floating objects are mirrored against their own section's page (issue
// 22 §5): a portrait first section with a header, a picture, a text box,
// a floating table, a frame and a VML shape, then a landscape last
// section with its own header and picture. Mirrored against the last
// (landscape) page, the portrait section's corner picture went 2286000
// EMU (2.5 in) further right and the floating table 3600 twips, off a
// portrait page.
func TestMirrorAgainstOwnSection(t *testing.T) {
	const (
		portrait  = `<w:pgSz w:w="12240" w:h="15840"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>`
		landscape = `<w:pgSz w:w="15840" w:h="12240" w:orient="landscape"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="720" w:footer="720" w:gutter="0"/>`
	)
	body := `<w:p><w:r><w:t>first section</w:t></w:r>` + anchoredBox("corner", "page", 457200, 914400) + `</w:p>` +
		`<w:p><w:r><w:t>boxed</w:t></w:r>` + anchoredBox("inside", "margin", 914400, 1828800) + `</w:p>` +
		`<w:tbl><w:tblPr><w:tblpPr w:horzAnchor="page" w:tblpX="720" w:tblpY="3000"/><w:tblW w:w="2880" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="2880"/></w:tblGrid>` +
		`<w:tr><w:tc><w:tcPr><w:tcW w:w="2880" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>floating table</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p><w:pPr><w:framePr w:w="2880" w:hAnchor="page" w:x="720" w:y="9000"/></w:pPr><w:r><w:t>a frame</w:t></w:r></w:p>` +
		`<w:p><w:r><w:pict><v:shape id="s1" style="position:absolute;margin-left:36pt;margin-top:500pt;width:144pt;height:40pt;mso-position-horizontal-relative:page"><v:textbox><w:txbxContent><w:p><w:r><w:t>vml</w:t></w:r></w:p></w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>` +
		`<w:p><w:pPr><w:sectPr><w:headerReference w:type="default" r:id="rIdH1"/>` + portrait + `</w:sectPr></w:pPr><w:r><w:t>end of the first section</w:t></w:r></w:p>` +
		`<w:p><w:r><w:t>second section</w:t></w:r>` + anchoredBox("wide", "page", 457200, 914400) + `</w:p>`
	last := `<w:sectPr><w:headerReference w:type="default" r:id="rIdH2"/>` + landscape + `</w:sectPr>`
	headers := map[string]string{
		"header1.xml": `<w:p><w:r><w:t>portrait header</w:t></w:r>` + anchoredBox("logo", "page", 457200, 914400) + `</w:p>`,
		"header2.xml": `<w:p><w:r><w:t>landscape header</w:t></w:r>` + anchoredBox("banner", "page", 457200, 914400) + `</w:p>`,
	}
	_, out := layoutDoc(t, New(Options{Coverage: KnownFonts{}}), sectionsDocx(t, body, last, headers), "en", "ar")
	const (
		portraitEMU  = 12240 * 635
		landscapeEMU = 15840 * 635
		textEMU      = (12240 - 2880) * 635
	)
	want := map[string]int64{
		"corner": portraitEMU - 457200 - 914400,
		"inside": textEMU - 914400 - 1828800,
		"logo":   portraitEMU - 457200 - 914400,
		"wide":   landscapeEMU - 457200 - 914400,
		"banner": landscapeEMU - 457200 - 914400,
	}
	got := map[string]string{}
	for _, part := range []string{"word/document.xml", "word/header1.xml", "word/header2.xml"} {
		root, err := ooxml.Parse([]byte(partOf(t, out, part)))
		if err != nil {
			t.Fatal(err)
		}
		root.RootElem().Walk(func(n *node) bool {
			if n.Is("anchor", nsWP) {
				name := ""
				for _, c := range n.Children {
					if c.Is("docPr", nsWP) {
						name = c.AttrOr("name", "")
					}
				}
				for _, h := range positionsH(n) {
					for _, c := range h.Children {
						got[name] = strings.TrimSpace(c.TextOf())
					}
				}
			}
			return true
		})
	}
	for name, w := range want {
		if got[name] != itoa64(w) {
			t.Errorf("%s: positionH offset %q, want %d (mirrored against its own section's page)", name, got[name], w)
		}
	}
	doc := partOf(t, out, "word/document.xml")
	for _, w := range []string{`w:tblpX="8640"`, `w:x="8640"`, `margin-left:432.00pt`} {
		if !strings.Contains(doc, w) {
			t.Errorf("%s not in the laid-out document: mirrored against the portrait page, 12240 twips wide", w)
		}
	}
}

// anchoredBox is a DrawingML text box named name, cx EMU wide, at offset
// off from the left of base (a wp:positionH relativeFrom value).
func anchoredBox(name, base string, off, cx int64) string {
	return `<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
		`<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="` + base + `"><wp:posOffset>` + itoa64(off) + `</wp:posOffset></wp:positionH>` +
		`<wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV><wp:extent cx="` + itoa64(cx) + `" cy="457200"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>` +
		`<wp:docPr id="1" name="` + name + `"/><wp:cNvGraphicFramePr/><a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/>` +
		`<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="` + itoa64(cx) + `" cy="457200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>` +
		`<wps:txbx><w:txbxContent><w:p><w:r><w:t>` + name + `</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr rot="0" vert="horz" wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"/></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>`
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }

const storyNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"` +
	` xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"` +
	` xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:v="urn:schemas-microsoft-com:vml"` +
	` xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" xmlns:w14="http://schemas.microsoft.com/office/word/2010/wordml" mc:Ignorable="w14"`

// sectionsDocx is a package whose body ends with sectPr last, with
// header parts (name → content of w:hdr) related as rIdH1, rIdH2, … in
// name order.
func sectionsDocx(t *testing.T, body, last string, headers map[string]string) []byte {
	t.Helper()
	ct := `<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>`
	rels := ""
	files := map[string]string{}
	for i, name := range []string{"header1.xml", "header2.xml"} {
		content, ok := headers[name]
		if !ok {
			continue
		}
		ct += `<Override PartName="/word/` + name + `" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>`
		rels += `<Relationship Id="rIdH` + strconv.Itoa(i+1) + `" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="` + name + `"/>`
		files["word/"+name] = `<w:hdr ` + storyNS + `>` + content + `</w:hdr>`
	}
	files["[Content_Types].xml"] = `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` + ct + `</Types>`
	files["_rels/.rels"] = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
	files["word/_rels/document.xml.rels"] = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + rels + `</Relationships>`
	files["word/document.xml"] = `<w:document ` + storyNS + `><w:body>` + body + last + `</w:body></w:document>`
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for _, n := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels", "word/header1.xml", "word/header2.xml"} {
		if s, ok := files[n]; ok {
			w, _ := zw.Create(n)
			io.WriteString(w, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`+s)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// partOf is a part of a package, as text.
func partOf(t *testing.T, docx []byte, name string) string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(docx), int64(len(docx)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := zr.Open(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

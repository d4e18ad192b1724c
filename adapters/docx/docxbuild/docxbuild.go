// Package docxbuild writes small .docx files from a list of blocks, for
// tests that need a document with a known shape: bold and linked runs,
// footnotes, a header, text boxes, exact-height table rows and frames of
// fixed size. What it writes opens in Word and LibreOffice.
package docxbuild

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
)

// Doc is a document: its body's blocks, a header, and the language the
// text is marked with.
type Doc struct {
	Body   []Block
	Header string // one paragraph of text; "" for none
	Lang   string // BCP 47 of the text, "en-US" when empty
	RTL    bool   // paragraphs right to left (an Arabic, Hebrew, Persian or Urdu original)
}

// Block is a block of the body: a paragraph, a table, a paragraph
// holding a text box.
type Block interface{ write(*writer) }

// Part is a piece of a paragraph.
type Part interface{ write(*writer) }

type text struct {
	s          string
	bold       bool
	link, note string
}

// Text is plain text.
func Text(s string) Part { return text{s: s} }

// Bold is bold text.
func Bold(s string) Part { return text{s: s, bold: true} }

// Link is text linking to url.
func Link(s, url string) Part { return text{s: s, link: url} }

// Footnote is a footnote reference whose note says note.
func Footnote(note string) Part { return text{note: note} }

type para struct{ parts []Part }

// P is a paragraph of parts.
func P(parts ...Part) Block { return para{parts} }

// Plain is a paragraph of plain text.
func Plain(s string) Block { return para{[]Part{Text(s)}} }

type box struct {
	w, h  int // EMU
	paras []string
	grows bool
}

// TextBox is a paragraph holding a text box of w × h points whose
// paragraphs say paras; it keeps its size whatever its text.
func TextBox(w, h int, paras ...string) Block { return box{w: w * 12700, h: h * 12700, paras: paras} }

// GrowingTextBox is a text box that grows with its text.
func GrowingTextBox(w, h int, paras ...string) Block {
	return box{w: w * 12700, h: h * 12700, paras: paras, grows: true}
}

type row struct {
	w, h  int // twips
	cells []string
	exact bool
}

// ExactRow is a one-row table of w × h points whose cells say cells, the
// row's height exact.
func ExactRow(w, h int, cells ...string) Block {
	return row{w: w * 20, h: h * 20, cells: cells, exact: true}
}

// Row is a one-row table whose row grows with its text.
func Row(w int, cells ...string) Block { return row{w: w * 20, cells: cells} }

type frame struct {
	w, h int // twips
	s    string
}

// Frame is a paragraph in a frame of w × h points, its height exact.
func Frame(w, h int, s string) Block { return frame{w: w * 20, h: h * 20, s: s} }

// writer builds the parts of a package.
type writer struct {
	doc   *Doc
	b     strings.Builder
	rels  []string // relationships of the main part beyond the fixed ones
	notes []string // footnote paragraphs' text
	ids   int
}

func (w *writer) id() int { w.ids++; return w.ids }

func esc(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

func (w *writer) pPr() string {
	if w.doc.RTL {
		return `<w:pPr><w:bidi/></w:pPr>`
	}
	return ""
}

func (w *writer) rPr(bold bool) string {
	var b strings.Builder
	if bold {
		b.WriteString(`<w:b/><w:bCs/>`)
	}
	if w.doc.RTL {
		b.WriteString(`<w:rtl/>`)
	}
	fmt.Fprintf(&b, `<w:lang w:val="%s" w:bidi="%s"/>`, w.doc.lang(), w.doc.lang())
	return `<w:rPr>` + b.String() + `</w:rPr>`
}

func (d *Doc) lang() string {
	if d.Lang == "" {
		return "en-US"
	}
	return d.Lang
}

func (w *writer) run(s string, bold bool) string {
	return `<w:r>` + w.rPr(bold) + `<w:t xml:space="preserve">` + esc(s) + `</w:t></w:r>`
}

func (t text) write(w *writer) {
	switch {
	case t.note != "":
		w.notes = append(w.notes, t.note)
		fmt.Fprintf(&w.b, `<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="%d"/></w:r>`, len(w.notes))
	case t.link != "":
		id := fmt.Sprintf("rIdL%d", w.id())
		w.rels = append(w.rels, fmt.Sprintf(`<Relationship Id="%s" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="%s" TargetMode="External"/>`, id, esc(t.link)))
		fmt.Fprintf(&w.b, `<w:hyperlink r:id="%s">%s</w:hyperlink>`, id, strings.Replace(w.run(t.s, t.bold), "<w:rPr>", `<w:rPr><w:color w:val="0563C1"/><w:u w:val="single"/>`, 1))
	default:
		w.b.WriteString(w.run(t.s, t.bold))
	}
}

func (p para) write(w *writer) {
	w.b.WriteString(`<w:p>` + w.pPr())
	for _, pt := range p.parts {
		pt.write(w)
	}
	w.b.WriteString(`</w:p>`)
}

func (b box) write(w *writer) {
	id := w.id()
	fit := `<a:noAutofit/>`
	if b.grows {
		fit = `<a:spAutoFit/>`
	}
	fmt.Fprintf(&w.b, `<w:p>%s<w:r><w:drawing><wp:anchor distT="0" distB="0" distL="114300" distR="114300" simplePos="0" relativeHeight="%d" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">`+
		`<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>`+
		`<wp:extent cx="%d" cy="%d"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapSquare wrapText="bothSides"/><wp:docPr id="%d" name="Text Box %d"/><wp:cNvGraphicFramePr/>`+
		`<a:graphic><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/>`+
		`<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom><a:ln><a:solidFill><a:srgbClr val="000000"/></a:solidFill></a:ln></wps:spPr>`+
		`<wps:txbx><w:txbxContent>`, w.pPr(), id, b.w, b.h, id, id, b.w, b.h)
	for _, s := range b.paras {
		w.b.WriteString(`<w:p>` + w.pPr() + w.run(s, false) + `</w:p>`)
	}
	fmt.Fprintf(&w.b, `</w:txbxContent></wps:txbx><wps:bodyPr rot="0" vert="horz" wrap="square" lIns="91440" tIns="45720" rIns="91440" bIns="45720" anchor="t">%s</wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r></w:p>`, fit)
}

func (r row) write(w *writer) {
	n := max(len(r.cells), 1)
	cw := r.w / n
	fmt.Fprintf(&w.b, `<w:tbl><w:tblPr><w:tblW w:w="%d" w:type="dxa"/>%s<w:tblBorders><w:top w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:left w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:right w:val="single" w:sz="4" w:space="0" w:color="000000"/><w:insideV w:val="single" w:sz="4" w:space="0" w:color="000000"/></w:tblBorders></w:tblPr><w:tblGrid>`, r.w, map[bool]string{true: `<w:bidiVisual/>`}[w.doc.RTL])
	for range n {
		fmt.Fprintf(&w.b, `<w:gridCol w:w="%d"/>`, cw)
	}
	w.b.WriteString(`</w:tblGrid><w:tr>`)
	if r.exact {
		fmt.Fprintf(&w.b, `<w:trPr><w:trHeight w:val="%d" w:hRule="exact"/></w:trPr>`, r.h)
	}
	for _, c := range r.cells {
		fmt.Fprintf(&w.b, `<w:tc><w:tcPr><w:tcW w:w="%d" w:type="dxa"/></w:tcPr><w:p>%s%s</w:p></w:tc>`, cw, w.pPr(), w.run(c, false))
	}
	w.b.WriteString(`</w:tr></w:tbl><w:p/>`)
}

func (f frame) write(w *writer) {
	bidi := ""
	if w.doc.RTL {
		bidi = `<w:bidi/>`
	}
	fmt.Fprintf(&w.b, `<w:p><w:pPr><w:framePr w:w="%d" w:h="%d" w:hRule="exact" w:hSpace="180" w:wrap="around" w:vAnchor="text" w:hAnchor="text" w:y="1"/><w:pBdr><w:top w:val="single" w:sz="4" w:space="1" w:color="000000"/><w:bottom w:val="single" w:sz="4" w:space="1" w:color="000000"/></w:pBdr>%s</w:pPr>%s</w:p><w:p/>`, f.w, f.h, bidi, w.run(f.s, false))
}

// Bytes writes the document as a .docx package.
func (d *Doc) Bytes() []byte {
	w := &writer{doc: d}
	for _, b := range d.Body {
		b.write(w)
	}
	body := w.b.String()
	parts := map[string]string{}
	ct := []string{`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>`,
		`<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>`}
	rels := append([]string{`<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>`}, w.rels...)
	sect := `<w:sectPr>`
	if d.Header != "" {
		hw := &writer{doc: d}
		Plain(d.Header).write(hw)
		parts["word/header1.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr ` + ns + `>` + hw.b.String() + `</w:hdr>`
		ct = append(ct, `<Override PartName="/word/header1.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.header+xml"/>`)
		rels = append(rels, `<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>`)
		sect += `<w:headerReference w:type="default" r:id="rIdH"/>`
	}
	if len(w.notes) > 0 {
		var nb strings.Builder
		nb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes ` + ns + `><w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote><w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>`)
		for i, s := range w.notes {
			nw := &writer{doc: d}
			fmt.Fprintf(&nb, `<w:footnote w:id="%d"><w:p>%s<w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>%s</w:p></w:footnote>`, i+1, nw.pPr(), nw.run(" "+s, false))
		}
		nb.WriteString(`</w:footnotes>`)
		parts["word/footnotes.xml"] = nb.String()
		ct = append(ct, `<Override PartName="/word/footnotes.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/>`)
		rels = append(rels, `<Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footnotes" Target="footnotes.xml"/>`)
	}
	if d.RTL {
		sect += `<w:bidi/>`
	}
	sect += `<w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr>`
	parts["word/document.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + ns + `><w:body>` + body + sect + `</w:body></w:document>`
	parts["word/styles.xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ` + ns + `><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Liberation Serif" w:hAnsi="Liberation Serif" w:cs="Noto Naskh Arabic"/><w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults></w:styles>`
	parts["word/_rels/document.xml.rels"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + strings.Join(rels, "") + `</Relationships>`
	parts["_rels/.rels"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`
	parts["[Content_Types].xml"] = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>` + strings.Join(ct, "") + `</Types>`

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/document.xml", "word/_rels/document.xml.rels", "word/styles.xml", "word/header1.xml", "word/footnotes.xml"} {
		if s, ok := parts[name]; ok {
			f, _ := zw.Create(name)
			f.Write([]byte(s))
		}
	}
	zw.Close()
	return buf.Bytes()
}

const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ` +
	`xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ` +
	`xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

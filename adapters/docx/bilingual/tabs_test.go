package bilingual

import (
	"archive/zip"
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// styledTabsDoc is a package whose tab stops come from paragraph styles:
// a table of contents entry (TOC1, based on a style with the right tab at
// 9345 twips and its dot leader), header-styled paragraphs in the body
// (centre 4680, right 9360), one adding a stop of its own, one clearing
// the centre; the page is A4 with 1" margins, 9026 twips of text width.
func styledTabsDoc() []byte {
	const ns = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	style := func(id, based, tabs string) string {
		b := ""
		if based != "" {
			b = `<w:basedOn w:val="` + based + `"/>`
		}
		return `<w:style w:type="paragraph" w:styleId="` + id + `"><w:name w:val="` + id + `"/>` + b + `<w:pPr><w:tabs>` + tabs + `</w:tabs></w:pPr></w:style>`
	}
	para := func(style, ppr string, texts ...string) string {
		var runs strings.Builder
		for i, s := range texts {
			if i > 0 {
				runs.WriteString(`<w:r><w:tab/></w:r>`)
			}
			runs.WriteString(`<w:r><w:t xml:space="preserve">` + s + `</w:t></w:r>`)
		}
		return `<w:p><w:pPr><w:pStyle w:val="` + style + `"/>` + ppr + `</w:pPr>` + runs.String() + `</w:p>`
	}
	parts := map[string]string{
		"[Content_Types].xml":          `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
		"_rels/.rels":                  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/_rels/document.xml.rels": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
		"word/styles.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ` + ns + `><w:docDefaults><w:rPrDefault><w:rPr><w:sz w:val="22"/></w:rPr></w:rPrDefault></w:docDefaults>` +
			`<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>` +
			style("TOCBase", "Normal", `<w:tab w:val="right" w:leader="dot" w:pos="9345"/>`) +
			style("TOC1", "TOCBase", `<w:tab w:val="left" w:pos="440"/>`) +
			style("Header", "Normal", `<w:tab w:val="center" w:pos="4680"/><w:tab w:val="right" w:pos="9360"/>`) + `</w:styles>`,
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ` + ns + `><w:body>` +
			para("TOC1", "", "1.", "Introduction", "3") +
			para("Header", "", "Left", "Centre", "Right") +
			para("Header", `<w:tabs><w:tab w:val="right" w:pos="7000"/></w:tabs>`, "One", "Two", "Three", "Four") +
			para("Header", `<w:tabs><w:tab w:val="clear" w:pos="4680"/></w:tabs>`, "Left", "Right") +
			para("Normal", "", "A paragraph without tab stops of its own or its style's.") +
			`<w:sectPr><w:pgSz w:w="11906" w:h="16838"/><w:pgMar w:top="1440" w:right="1440" w:bottom="1440" w:left="1440" w:header="708" w:footer="708" w:gutter="0"/></w:sectPr></w:body></w:document>`,
	}
	var b bytes.Buffer
	z := zip.NewWriter(&b)
	for _, name := range []string{"[Content_Types].xml", "_rels/.rels", "word/_rels/document.xml.rels", "word/styles.xml", "word/document.xml"} {
		f, _ := z.Create(name)
		f.Write([]byte(parts[name]))
	}
	z.Close()
	return b.Bytes()
}

// effectiveTabs are a paragraph's tab stops as Word applies them, as
// "pos:kind" in position order: its style chain's (nearest last), then
// its own, each list adding stops and removing those it clears.
func effectiveTabs(t *testing.T, styles *ooxml.Node, p *ooxml.Node) []string {
	t.Helper()
	byID := map[string]*ooxml.Node{}
	for _, st := range styles.RootElem().ChildrenW("style") {
		byID[st.AttrOr("styleId", "")] = st
	}
	var lists []*ooxml.Node
	for id := p.Child("pPr").Child("pStyle").AttrOr("val", ""); byID[id] != nil; id = byID[id].Child("basedOn").AttrOr("val", "") {
		lists = append([]*ooxml.Node{byID[id].Child("pPr").Child("tabs")}, lists...)
	}
	lists = append(lists, p.Child("pPr").Child("tabs"))
	stops := map[int]string{}
	for _, l := range lists {
		for _, tab := range l.ChildrenW("tab") {
			pos := atoi(tab.AttrOr("pos", ""), -1)
			if tab.AttrOr("val", "") == "clear" {
				delete(stops, pos)
			} else {
				stops[pos] = tab.AttrOr("val", "") + tab.AttrOr("leader", "")
			}
		}
	}
	var out []string
	for pos, kind := range stops {
		out = append(out, fmt.Sprintf("%06d:%s", pos, kind))
	}
	slices.Sort(out)
	return out
}

func kinds(tabs []string) []string {
	var out []string
	for _, s := range tabs {
		out = append(out, s[strings.IndexByte(s, ':')+1:])
	}
	return out
}

// Tab stops a paragraph's style gives it (a table of contents' right tab,
// a header style's used in the body) are fitted into the column as its
// own are: written on the paragraph, scaled, with the style's cleared,
// while the styles stay as they are for the parts that keep the page's
// width (headers, footers).
func TestStyleTabStopsFitTheColumn(t *testing.T) {
	src := styledTabsDoc()
	body, pk := composeBytes(t, src)
	sp, err := ooxml.Open(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	srcStylesXML, _ := sp.ReadPart("word/styles.xml")
	stylesXML, _ := pk.ReadPart("word/styles.xml")
	if !bytes.Equal(stylesXML, srcStylesXML) {
		t.Error("the styles part changed")
	}
	srcStyles, err := ooxml.Parse(srcStylesXML)
	if err != nil {
		t.Fatal(err)
	}
	srcDoc, _ := sp.ReadPart(sp.Main())
	sdoc, err := ooxml.Parse(srcDoc)
	if err != nil {
		t.Fatal(err)
	}
	var want [][]string // each source paragraph's stops before composing
	for _, p := range bodyOf(sdoc).ChildrenW("p") {
		want = append(want, effectiveTabs(t, srcStyles, p))
	}
	tbl := body.Child("tbl")
	room := atoi(tbl.Child("tblGrid").Child("gridCol").AttrOr("w", ""), 0) - 2*cellMargin
	rows := tbl.ChildrenW("tr")
	if len(rows) != len(want) {
		t.Fatalf("%d rows for %d paragraphs", len(rows), len(want))
	}
	for i, tr := range rows {
		for col, tc := range tr.ChildrenW("tc") {
			p := tc.Child("p")
			got := effectiveTabs(t, srcStyles, p)
			if !slices.Equal(kinds(got), kinds(want[i])) {
				t.Errorf("row %d column %d: tab stops %v, want the kinds of %v", i, col, got, want[i])
			}
			for _, s := range got {
				if pos := atoi(strings.TrimLeft(s[:strings.IndexByte(s, ':')], "0"), 0); pos > room || pos <= 0 {
					t.Errorf("row %d column %d: a stop at %d twips in a column with %d twips of text width (%v)", i, col, pos, room, got)
				}
			}
			if len(want[i]) == 0 && p.Child("pPr").Child("tabs") != nil {
				t.Errorf("row %d column %d: tab stops written on a paragraph that has none", i, col)
			}
		}
	}
}

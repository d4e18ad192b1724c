package rtl

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// reviewBodies are bodies built to find where the streamed layout could
// part from the whole-tree one: content wrapped in custom XML and
// mc:AlternateContent, a table's grid before its properties, cells and
// rows wrapped in custom XML, a nested table in a content control in a
// cell, range markup before a table's properties, tracked section
// changes.
func reviewBodies() []string {
	p := func(s string) string {
		return `<w:p><w:r><w:t xml:space="preserve">` + s + `</w:t></w:r></w:p>`
	}
	ar, en := p("تقرير السنة 2024 مع Dragoman"), p("Annual report 2024")
	grid := `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="2000"/></w:tblGrid>`
	indented := `<w:tblPr><w:tblInd w:w="720" w:type="dxa"/></w:tblPr>`
	narrow := `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="1500"/></w:tblGrid><w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl>`
	mc := `xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`
	return []string{
		`<w:customXml w:element="x"><w:tbl>` + indented + grid + `<w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl>` + en + `</w:customXml>`,
		`<mc:AlternateContent ` + mc + `><mc:Choice Requires="w14"><w:tbl>` + indented + grid + `<w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl></mc:Choice><mc:Fallback>` + en + `</mc:Fallback></mc:AlternateContent>`,
		`<w:tbl>` + grid + indented + `<w:tr><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr>` + narrow + ar + `</w:tc></w:tr></w:tbl>`,
		`<w:tbl>` + indented + grid + `<w:tr><w:customXml w:element="c"><w:tc>` + ar + `</w:tc></w:customXml><w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr>` + narrow + p("") + `</w:tc></w:tr><w:customXml w:element="r"><w:tr><w:tc>` + en + `</w:tc></w:tr></w:customXml></w:tbl>`,
		`<w:tbl>` + indented + grid + `<w:tr><w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:sdt><w:sdtContent>` + narrow + `</w:sdtContent></w:sdt>` + ar + `</w:tc></w:tr></w:tbl>`,
		`<w:tbl><w:bookmarkStart w:id="3" w:name="x"/><w:permStart w:id="4"/>` + grid + `<w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl>`,
		`<w:tbl><w:tr><w:tc>` + ar + `</w:tc></w:tr><w:tr><w:tc>` + narrow + p("") + `</w:tc></w:tr></w:tbl>`,
		ar + `<w:p><w:pPr><w:sectPr><w:pgSz w:w="15840" w:h="12240"/><w:pgMar w:left="1000" w:right="1000"/><w:sectPrChange w:id="9" w:author="a"><w:sectPr><w:pgSz w:w="12240"/></w:sectPr></w:sectPrChange></w:sectPr></w:pPr></w:p>` + `<w:tbl>` + indented + grid + `<w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl>`,
		`<w:sdt><w:sdtPr/><w:sdtContent><w:customXml><w:sdt><w:sdtContent><w:tbl>` + indented + grid + `<w:tr><w:sdt><w:sdtContent><w:tc>` + ar + `</w:tc></w:sdtContent></w:sdt></w:tr></w:tbl></w:sdtContent></w:sdt></w:customXml></w:sdtContent></w:sdt>`,
	}
}

// TestStreamedReviewBodiesMatchWholeTree is TestStreamedTablesMatchWholeTree
// on reviewBodies.
func TestStreamedReviewBodiesMatchWholeTree(t *testing.T) {
	reqs := []ports.LayoutRequest{{SourceLang: "en", TargetLang: "ar"}, {SourceLang: "", TargetLang: "he"}, {SourceLang: "ar", TargetLang: "en"}, {SourceLang: "ar", TargetLang: "fa"}}
	assertStreamedMatchesTree(t, reviewBodies(), reqs)
}

// The page of a document is its last section's, not the previous version
// of that section a tracked change keeps inside it (w:sectPrChange holds a
// w:sectPr, written after the current properties): a landscape page whose
// orientation change is tracked is measured as landscape.
func TestPageGeometryIgnoresTrackedSectionChanges(t *testing.T) {
	const w = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	doc, err := ooxml.Parse([]byte(`<w:document ` + w + `><w:body><w:p/><w:sectPr><w:pgSz w:w="15840" w:h="12240"/><w:pgMar w:left="1000" w:right="1200"/>` +
		`<w:sectPrChange w:id="1" w:author="a"><w:sectPr><w:pgSz w:w="12240" w:h="15840"/></w:sectPr></w:sectPrChange></w:sectPr></w:body></w:document>`))
	if err != nil {
		t.Fatal(err)
	}
	var secs sections
	secs.add(doc.RootElem(), map[string]int{})
	if want := (pageGeom{width: 15840, left: 1000, right: 1200}); len(secs.geoms) != 1 || secs.last() != want {
		t.Errorf("sections %+v, want one, %+v", secs.geoms, want)
	}
}

// A paragraph too large to hold as one block fails the layout as the
// document's fault (the job fails with the reason instead of being
// retried), before anything is written.
func TestGiantParagraphIsABadDocument(t *testing.T) {
	defer func(n int) { ooxml.MaxBlockNodes = n }(ooxml.MaxBlockNodes)
	ooxml.MaxBlockNodes = 2000
	doc := miniDocx(t, `<w:p>`+strings.Repeat(`<w:r><w:t>كلمة</w:t></w:r>`, 1000)+`</w:p>`)
	var out bytes.Buffer
	_, err := New(Options{}).Apply(context.Background(), newBlob(doc), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, &out)
	if !errors.Is(err, ports.ErrBadDocument) || !errors.Is(err, ooxml.ErrBlockTooLarge) {
		t.Fatalf("got %v, want a bad document (block too large)", err)
	}
	if !strings.Contains(err.Error(), "split it") {
		t.Errorf("the reason does not say what to do: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("%d bytes written before the refusal", out.Len())
	}
}

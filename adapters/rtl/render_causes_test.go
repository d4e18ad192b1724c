package rtl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/adapters/rtl/rtltest"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// TestRenderFlushLeftCauses renders, with LibreOffice, one document built
// per cause of RTL text drawn at the left edge (issue 10 item 4) and checks
// where the text lands after the layout, English to Arabic.
func TestRenderFlushLeftCauses(t *testing.T) {
	const (
		narrow = "41114" // first cell of a narrow table
		indent = "42224" // first cell of a narrow indented table
		box    = "43334" // text box flush with the column's left edge
		pct    = "44444" // table narrower than the page by percentage
		nested = "45554" // first cell of a narrow table nested in a cell
	)
	cell := func(text string) string {
		return `<w:tc><w:tcPr><w:tcW w:w="2000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>` + text + `</w:t></w:r></w:p></w:tc>`
	}
	table := func(tblPr, first string) string {
		return `<w:tbl><w:tblPr>` + tblPr + `<w:tblBorders><w:top w:val="single" w:sz="4"/><w:bottom w:val="single" w:sz="4"/><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
			`<w:tblGrid><w:gridCol w:w="2000"/><w:gridCol w:w="2000"/></w:tblGrid><w:tr>` + cell("table "+first) + cell("note") + `</w:tr></w:tbl><w:p/>`
	}
	textBox := `<w:p><w:r><mc:AlternateContent xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><mc:Choice Requires="wps"><w:drawing>` +
		`<wp:anchor xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="1" behindDoc="0" locked="0" layoutInCell="1" allowOverlap="1">` +
		`<wp:simplePos x="0" y="0"/><wp:positionH relativeFrom="column"><wp:posOffset>0</wp:posOffset></wp:positionH><wp:positionV relativeFrom="paragraph"><wp:posOffset>0</wp:posOffset></wp:positionV>` +
		`<wp:extent cx="1828800" cy="457200"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/><wp:docPr id="1" name="box"/><wp:cNvGraphicFramePr/>` +
		`<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp><wps:cNvSpPr txBox="1"/>` +
		`<wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="1828800" cy="457200"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></wps:spPr>` +
		`<wps:txbx><w:txbxContent><w:p><w:r><w:t>box ` + box + `</w:t></w:r></w:p></w:txbxContent></wps:txbx><wps:bodyPr rot="0" vert="horz" wrap="square" lIns="0" tIns="0" rIns="0" bIns="0" anchor="t"/></wps:wsp></a:graphicData></a:graphic>` +
		`</wp:anchor></w:drawing></mc:Choice><mc:Fallback/></mc:AlternateContent></w:r><w:r><w:t>anchor</w:t></w:r></w:p><w:p/><w:p/><w:p/>`
	// A full-width table whose first cell holds a narrow table (two
	// columns of 1500 twips in a cell of 4620).
	outer := `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr>` +
		`<w:tblGrid><w:gridCol w:w="4620"/><w:gridCol w:w="4620"/></w:tblGrid><w:tr><w:tc><w:tcPr><w:tcW w:w="4620" w:type="dxa"/></w:tcPr>` +
		`<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/><w:tblBorders><w:insideV w:val="single" w:sz="4"/></w:tblBorders></w:tblPr><w:tblGrid><w:gridCol w:w="1500"/><w:gridCol w:w="1500"/></w:tblGrid>` +
		`<w:tr><w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>inner ` + nested + `</w:t></w:r></w:p></w:tc><w:tc><w:tcPr><w:tcW w:w="1500" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>x</w:t></w:r></w:p></w:tc></w:tr></w:tbl>` +
		`<w:p/></w:tc><w:tc><w:tcPr><w:tcW w:w="4620" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>outer</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>`
	body := outer + table(`<w:tblW w:w="0" w:type="auto"/>`, narrow) +
		table(`<w:tblW w:w="4000" w:type="dxa"/><w:tblInd w:w="720" w:type="dxa"/>`, indent) +
		table(`<w:tblW w:w="2500" w:type="pct"/>`, pct) +
		textBox + `<w:p><w:r><w:t>end of the document</w:t></w:r></w:p>`
	_, out := layoutDoc(t, New(Options{}), miniDocx(t, body), "en", "ar")
	dir := t.TempDir()
	if keep := os.Getenv("DRAGOMAN_RTL_KEEP"); keep != "" {
		dir = keep
	}
	p := filepath.Join(dir, "causes.docx")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	pdfs, err := rtltest.ToPDF(context.Background(), dir, p)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := rtltest.Layout(context.Background(), pdfs[0])
	if err != nil {
		t.Fatal(err)
	}
	left, right, err := rtltest.PageEdges(out)
	if err != nil {
		t.Fatal(err)
	}
	at := func(marker string) rtltest.Line { // the line holding marker
		var found []rtltest.Line
		for _, pg := range pages {
			for _, l := range pg.Lines {
				for _, w := range l.Words {
					if strings.Trim(w.Text, "\u200e\u200f") == marker {
						found = append(found, l)
					}
				}
			}
		}
		if len(found) != 1 {
			t.Fatalf("marker %s rendered %d times", marker, len(found))
		}
		return found[0]
	}
	// A narrow bidiVisual table: LibreOffice puts it at the left margin,
	// Word at the right; spanned to the text width it is the same in both
	// and its first cell's text ends at the right margin (less the cell
	// padding).
	for _, m := range []string{narrow, pct} {
		if w := at(m); w.XMax < right-12 {
			t.Errorf("first cell of a narrow table (%s) ends at x=%.0f, not at the right margin %.0f", m, w.XMax, right)
		}
	}
	// A narrow table nested in the outer table's first cell (on the right
	// after mirroring) starts at that cell's right edge: its first cell's
	// text ends at the right margin less two cell paddings.
	if w := at(nested); w.XMax < right-20 {
		t.Errorf("first cell of a narrow nested table ends at x=%.0f, not at the outer cell's right edge %.0f", w.XMax, right)
	}
	// Indented by 720 twips (36 pt): the first cell ends 36 pt from the
	// right margin, less the cell padding (LibreOffice counts the indent to
	// the cell text, as Word before compatibility mode 15).
	if w := at(indent); w.XMax < right-36-18 || w.XMax > right-36+3 {
		t.Errorf("first cell of an indented table ends at x=%.0f, want about %.0f", w.XMax, right-36)
	}
	// A text box flush with the column's left edge goes to the right edge.
	if w := at(box); w.XMin < (left+right)/2 {
		t.Errorf("text box flush with the left edge stays on the left after mirroring: x=%.0f", w.XMin)
	}
}

// TestRenderChartMirrored: a chart in a document translated to Arabic
// runs its categories from the right and puts its value axis (and the
// axis title beside it) on the right, as Excel's "categories in reverse
// order" does (onlyoffice-sample's column chart), and its text reads as
// written: LibreOffice drew an inline chart of a right-to-left paragraph
// reversed ("tnioPrewoP", "006" for 600), so the chart's own paragraph
// stays left to right, aligned to the right (charts.go).
func TestRenderChartMirrored(t *testing.T) {
	_, out := layoutDoc(t, New(Options{}), read(t, testDoc("ltr/onlyoffice-sample.docx")), "en", "ar")
	doc := documentXML(t, out)
	at := strings.Index(doc, "<c:chart ")
	para := doc[strings.LastIndex(doc[:at], "<w:p>"):at]
	if !strings.Contains(para, `<w:bidi w:val="0"/>`) || !strings.Contains(para, `<w:jc w:val="right"/>`) {
		t.Errorf("the chart's paragraph is not left to right and right-aligned: %s", para)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "chart.docx")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	pdfs, err := rtltest.ToPDF(context.Background(), dir, p)
	if err != nil {
		t.Fatal(err)
	}
	pages, err := rtltest.Layout(context.Background(), pdfs[0])
	if err != nil {
		t.Fatal(err)
	}
	x := func(text string) float64 {
		w := rtltest.Find(pages, text)
		if len(w) != 1 {
			t.Fatalf("%q rendered %d times, want once, as written", text, len(w))
		}
		return (w[0].XMin + w[0].XMax) / 2
	}
	// categories: Excel first, Outlook last; value axis labels 0…600
	excel, outlook, axis := x("Excel"), x("Outlook"), x("500")
	x("PowerPoint")
	x("600")
	if excel < outlook {
		t.Errorf("first category at x=%.0f, last at x=%.0f: categories still run from the left", excel, outlook)
	}
	if axis < excel {
		t.Errorf("value axis at x=%.0f, left of the first category (x=%.0f): not moved to the right", axis, excel)
	}
}

// An inline chart narrower than the column, alone in its paragraph, sits
// at the right in right-to-left output (the paragraph's start, written
// physically), at the left where the source put it at the end, centred
// where it was; an indent moves to the right with it.
func TestChartParagraphAlignment(t *testing.T) {
	inline := func(ppr string) string {
		return `<w:p><w:pPr>` + ppr + `</w:pPr><w:r><w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"><wp:extent cx="3000000" cy="2000000"/><wp:docPr id="1" name="c"/>` +
			`<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" r:id="rId9" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"/></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`
	}
	for _, c := range []struct{ ppr, want string }{
		{``, `<w:pPr><w:bidi w:val="0"/><w:jc w:val="right"/></w:pPr>`},
		{`<w:ind w:left="720"/><w:jc w:val="left"/>`, `<w:pPr><w:bidi w:val="0"/><w:ind w:right="720"/><w:jc w:val="right"/></w:pPr>`},
		{`<w:jc w:val="right"/>`, `<w:pPr><w:bidi w:val="0"/><w:jc w:val="left"/></w:pPr>`},
		{`<w:jc w:val="center"/>`, `<w:pPr><w:bidi w:val="0"/><w:jc w:val="center"/></w:pPr>`},
	} {
		var out bytes.Buffer
		doc := styledDocx(t, inline(c.ppr)+`<w:p><w:r><w:t>text</w:t></w:r></w:p>`)
		if _, err := New(Options{Coverage: KnownFonts{}}).Apply(context.Background(), newBlob(pseudoTranslate(t, doc, "ar")), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}, &out); err != nil {
			t.Fatal(err)
		}
		got := documentXML(t, out.Bytes())
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: want %s in %s", c.ppr, c.want, got)
		}
	}
}

// TestNestedNarrowTable: a narrow table nested in a cell spans the cell
// (tblW 100 %) and is counted in the narrow-table warning; a nested table
// already as wide as its cell keeps its width. The cell's width comes from
// its tcW or, without one, from the grid columns it spans.
func TestNestedNarrowTable(t *testing.T) {
	inner := func(w string) string {
		return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="` + w + `"/></w:tblGrid>` +
			`<w:tr><w:tc><w:p><w:r><w:t>inner</w:t></w:r></w:p></w:tc></w:tr></w:tbl><w:p/>`
	}
	outer := func(tcW, content string) string {
		return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="4000"/></w:tblGrid>` +
			`<w:tr><w:tc><w:p><w:r><w:t>a</w:t></w:r></w:p></w:tc><w:tc>` + tcW + content + `</w:tc></w:tr></w:tbl><w:p/>`
	}
	for _, c := range []struct {
		name, body string
		spanned    bool
	}{
		{"narrow, tcW", outer(`<w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>`, inner("2000")), true},
		{"narrow, grid", outer(``, inner("2000")), true},
		{"as wide as the cell", outer(`<w:tcPr><w:tcW w:w="4000" w:type="dxa"/></w:tcPr>`, inner("3784")), false},
	} {
		doc := miniDocx(t, c.body)
		counts := kindsOf(t, New(Options{}), doc, "en", "ar")
		_, out := layoutDoc(t, New(Options{}), doc, "en", "ar")
		x := documentXML(t, out)
		inTable := x[strings.Index(x, "<w:tc>"):]
		spanned := strings.Contains(inTable[strings.Index(inTable, "<w:tbl>"):], `<w:tblW w:w="5000" w:type="pct"/>`)
		if spanned != c.spanned {
			t.Errorf("%s: nested table spanned: %v, want %v", c.name, spanned, c.spanned)
		}
		// The outer table (5000 twips of 8240) is narrow itself: one count, two when the nested one is too.
		want := 1
		if c.spanned {
			want = 2
		}
		if counts[kindNarrowTable] != want {
			t.Errorf("%s: %d narrow tables counted, want %d", c.name, counts[kindNarrowTable], want)
		}
	}
}

package rtl

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// TestStreamedLayoutMatchesWholeTree: laying out story parts block by block
// (issue 15 item 3) writes, on every test document, in both directions and
// in the same direction, the package the whole-tree layout wrote, and
// reads the same direction, page geometry and report findings as scans of
// whole trees.
func TestStreamedLayoutMatchesWholeTree(t *testing.T) {
	type job struct {
		path string
		doc  []byte
		req  ports.LayoutRequest
	}
	var jobs []job
	for _, p := range corpus(t, "ltr") {
		doc := read(t, p)
		jobs = append(jobs,
			job{p, pseudoTranslate(t, doc, "ar"), ports.LayoutRequest{SourceLang: "en", TargetLang: "ar"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "", TargetLang: "he"}})
	}
	for _, p := range append(corpus(t, "rtl"), testDoc("synthetic/bookfold-gutter.docx")) {
		doc := read(t, p)
		jobs = append(jobs,
			job{p, pseudoTranslate(t, doc, "en"), ports.LayoutRequest{SourceLang: "ar", TargetLang: "en"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "ar", TargetLang: "fa"}},
			job{p, doc, ports.LayoutRequest{SourceLang: "", TargetLang: "fr"}})
	}
	l := New(Options{Coverage: KnownFonts{}})
	compared := 0
	for _, j := range jobs {
		name := fmt.Sprintf("%s %q→%s", filepath.Base(j.path), j.req.SourceLang, j.req.TargetLang)
		var got bytes.Buffer
		rep, err := l.Apply(context.Background(), newBlob(j.doc), j.req, &got)
		if err != nil {
			if _, _, perr := l.prepare(newBlob(j.doc), j.req); perr == nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		pk, ps, err := l.prepare(newBlob(j.doc), j.req)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The direction and geometry, scanned on whole trees.
		var d docDirection
		he := false
		for _, s := range pk.stories {
			root, err := pk.part(s)
			if err != nil {
				t.Fatal(err)
			}
			if s == pk.mainDoc {
				var secs sections
				secs.add(root.RootElem(), map[string]int{})
				if !slices.Equal(secs.geoms, ps.sects.geoms) {
					t.Errorf("%s: sections %+v streamed, %+v from the tree", name, ps.sects.geoms, secs.geoms)
				}
			}
			d.scan(root.RootElem(), ps.styles, &he)
		}
		d.scriptLang = map[bool]string{true: "he", false: ""}[he]
		if !he && d.rtlLetters > 0 {
			d.scriptLang = "ar"
		}
		if d != ps.doc {
			t.Errorf("%s: direction %+v streamed, %+v from the trees", name, ps.doc, d)
		}
		if rep == nil {
			if !bytes.Equal(got.Bytes(), j.doc) {
				t.Errorf("%s: no report, yet the document was changed", name)
			}
			continue
		}
		// The findings of the read, counted on whole trees.
		f := readFindings(t, l, j.doc, j.req)
		if ps.m.flip {
			tf := newFindings()
			for _, s := range pk.stories {
				root, err := pk.part(s)
				if err != nil {
					t.Fatal(err)
				}
				tf.scanStory(root.RootElem())
				ps.startPart(s)
				root.RootElem().Walk(func(n *node) bool {
					ps.geom = ps.cursor.visit(n) // a table is narrow on its own section's page
					if n.IsW("tbl") && ps.m.targetRTL && narrowTable(n, ps.geom) {
						tf.add(kindNarrowTable, 1)
					}
					return true
				})
			}
			for k := kindFloats; k < kindSubstitution; k++ {
				// fonts, numbering bullets and settings are counted
				// outside the stories too
				outside := k == kindFont || k == kindArrowBullet || k == kindBookFold
				if f.count[k] != tf.count[k] && !(outside && f.count[k] > tf.count[k]) {
					t.Errorf("%s: %d findings of kind %d streamed, %d in the trees", name, f.count[k], k, tf.count[k])
				}
			}
		}
		// The package, every story laid out as one tree.
		if err := ps.convert(pk, f); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := pk.write(&want); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			w, g := entries(t, want.Bytes()), entries(t, got.Bytes())
			for _, e := range slices.Sorted(maps.Keys(w)) {
				if w[e] != g[e] {
					t.Errorf("%s: %s differs between the streamed and the whole-tree layout", name, e)
				}
			}
		}
		compared++
	}
	if compared < len(jobs)/2 {
		t.Fatalf("only %d of %d jobs laid out and compared", compared, len(jobs))
	}
	t.Logf("%d of %d jobs compared", compared, len(jobs))
}

// tableBodies are document bodies of tables the layout streams row by row
// (issue 15 item 3): right-to-left and Latin content, narrow, indented,
// floating and percentage-wide tables, tables lacking tblPr or tblGrid,
// tables nested three deep, rows and cells in content controls, a table
// in a text box (inside a paragraph block, laid out whole), narrow tables
// nested in cells whose width comes from their tcW or from the grid
// columns they span (gridBefore, gridSpan, cells before them).
func tableBodies() []string {
	p := func(s string) string {
		return `<w:p><w:r><w:t xml:space="preserve">` + s + `</w:t></w:r></w:p>`
	}
	ar, en := p("تقرير السنة 2024 مع Dragoman"), p("Annual report 2024")
	grid := `<w:tblGrid><w:gridCol w:w="3000"/><w:gridCol w:w="2000"/></w:tblGrid>`
	row := func(cells ...string) string {
		s := `<w:tr><w:trPr><w:jc w:val="left"/></w:trPr>`
		for _, c := range cells {
			s += `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/><w:tcBorders><w:left w:val="single" w:sz="4"/></w:tcBorders></w:tcPr>` + c + `</w:tc>`
		}
		return s + `</w:tr>`
	}
	tbl := func(pr, grid string, rows ...string) string {
		s := `<w:tbl>` + pr + grid
		for _, r := range rows {
			s += r
		}
		return s + `</w:tbl>`
	}
	indented := `<w:tblPr><w:tblInd w:w="720" w:type="dxa"/><w:jc w:val="left"/></w:tblPr>`
	floating := `<w:tblPr><w:tblpPr w:leftFromText="180" w:horzAnchor="page" w:tblpX="1800" w:tblpY="200"/></w:tblPr>`
	pct := `<w:tblPr><w:tblW w:w="3000" w:type="pct"/></w:tblPr>`
	inner := tbl(indented, grid, row(ar, en))
	box := `<w:p><w:r><w:pict><v:shape xmlns:v="urn:schemas-microsoft-com:vml" style="position:absolute;margin-left:10pt;width:100pt;height:50pt"><v:textbox><w:txbxContent>` + tbl(indented, grid, row(ar)) + en + `</w:txbxContent></v:textbox></v:shape></w:pict></w:r></w:p>`
	return []string{
		tbl(indented, grid, row(ar, en), row(en, en)) + tbl(indented, grid, row(en, en)) + tbl(pct, grid, row(p(""), en)),
		tbl(floating, grid, row(ar, en)) + tbl(`<w:tblPr/>`, "", row(en)) + tbl("", grid, row(ar)) + tbl("", "", row(ar, en)),
		`<w:bookmarkStart w:id="0" w:name="a"/>` + tbl(`<w:bookmarkStart w:id="1" w:name="b"/>`+indented, grid, row(en)) + `<w:bookmarkEnd w:id="0"/>`,
		tbl(indented, grid, row(en, tbl(pct, grid, row(en, inner), row(en))), row(inner)) + ar,
		tbl(indented, grid, `<w:sdt><w:sdtPr><w:rPr><w:b/></w:rPr></w:sdtPr><w:sdtContent>`+row(en)+`</w:sdtContent></w:sdt>`,
			`<w:tr><w:sdt><w:sdtContent><w:tc>`+ar+`</w:tc></w:sdtContent></w:sdt></w:tr>`) + box,
		tbl(floating, grid, row(en+box, tbl(floating, grid, row(en))+p("")), row(ar)),
		nestedNarrow(p, ar, en),
	}
}

// nestedNarrow is a body of narrow tables nested in cells of a table whose
// grid has columns of 1000, 2000, 3000 and 2000 twips: in a cell after
// gridBefore and a spanning cell, in cells without properties, with a tcW
// in percent (the grid then gives the width), after a cell in a content
// control, in a row in a content control (no width known), three deep,
// and in a table without tblPr or tblGrid whose first row is held whole.
// Indented nested tables get a width that depends on the cell's.
func nestedNarrow(p func(string) string, ar, en string) string {
	narrow := `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr><w:tblGrid><w:gridCol w:w="1500"/></w:tblGrid><w:tr><w:tc>` + ar + `</w:tc></w:tr></w:tbl>` + p("")
	indented := func(content string) string {
		return `<w:tbl><w:tblPr><w:tblInd w:w="300" w:type="dxa"/></w:tblPr><w:tblGrid><w:gridCol w:w="900"/></w:tblGrid><w:tr><w:tc>` + content + `</w:tc></w:tr></w:tbl>` + p("")
	}
	cell := func(pr, content string) string {
		if pr != "" {
			pr = `<w:tcPr>` + pr + `</w:tcPr>`
		}
		return `<w:tc>` + pr + content + `</w:tc>`
	}
	span := func(n string) string { return `<w:gridSpan w:val="` + n + `"/>` }
	grid := `<w:tblGrid><w:gridCol w:w="1000"/><w:gridCol w:w="2000"/><w:gridCol w:w="3000"/><w:gridCol w:w="2000"/></w:tblGrid>`
	return `<w:tbl><w:tblPr><w:tblW w:w="0" w:type="auto"/></w:tblPr>` + grid +
		`<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>` + cell(span("2"), en) + cell("", narrow+indented(ar)) + `</w:tr>` +
		`<w:tr>` + cell(span("2"), indented(ar)) + cell("", indented(en)) + cell("", indented(ar)) + `</w:tr>` +
		`<w:tr>` + cell(`<w:tcW w:w="2500" w:type="pct"/>`+span("3"), indented(ar)) + cell(`<w:tcW w:w="1800" w:type="dxa"/>`, narrow) + `</w:tr>` +
		`<w:tr><w:sdt><w:sdtContent>` + cell(span("2"), en) + `</w:sdtContent></w:sdt>` + cell("", indented(ar)) + cell("", indented(indented(ar))) + `</w:tr>` +
		`<w:sdt><w:sdtContent><w:tr>` + cell("", narrow) + cell(`<w:tcW w:w="2000" w:type="dxa"/>`, narrow) + `</w:tr></w:sdtContent></w:sdt>` +
		`</w:tbl>` + p("") +
		`<w:tbl><w:tr>` + cell("", narrow) + `</w:tr><w:tr>` + cell(`<w:tcW w:w="3000" w:type="dxa"/>`, narrow) + `</w:tr></w:tbl>` + ar
}

// TestStreamedTablesMatchWholeTree is TestStreamedLayoutMatchesWholeTree
// on tableBodies, in every direction.
func TestStreamedTablesMatchWholeTree(t *testing.T) {
	reqs := []ports.LayoutRequest{{SourceLang: "en", TargetLang: "ar"}, {SourceLang: "", TargetLang: "he"}, {SourceLang: "ar", TargetLang: "en"}, {SourceLang: "ar", TargetLang: "fa"}, {SourceLang: "", TargetLang: "fr"}}
	assertStreamedMatchesTree(t, tableBodies(), reqs)
}

// assertStreamedMatchesTree lays out a document of each body for each
// request, streamed (Apply) and as a whole tree, and fails where the
// outputs or the narrow-table counts differ.
func assertStreamedMatchesTree(t *testing.T, bodies []string, reqs []ports.LayoutRequest) {
	t.Helper()
	l := New(Options{Coverage: KnownFonts{}})
	for i, body := range bodies {
		doc := miniDocx(t, body)
		for _, req := range reqs {
			name := fmt.Sprintf("body %d %q→%s", i, req.SourceLang, req.TargetLang)
			var got bytes.Buffer
			rep, err := l.Apply(context.Background(), newBlob(doc), req, &got)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if rep == nil { // nothing right to left: the document as it came
				if !bytes.Equal(got.Bytes(), doc) {
					t.Errorf("%s: no report, yet the document was changed", name)
				}
				continue
			}
			pk, ps, err := l.prepare(newBlob(doc), req)
			if err != nil {
				t.Fatal(err)
			}
			f := readFindings(t, l, doc, req)
			tf := newFindings()
			root, err := pk.part(pk.mainDoc)
			if err != nil {
				t.Fatal(err)
			}
			if ps.m.flip {
				ps.startPart(pk.mainDoc)
				root.RootElem().Walk(func(n *node) bool {
					ps.geom = ps.cursor.visit(n)
					if n.IsW("tbl") && ps.m.targetRTL && narrowTable(n, ps.geom) {
						tf.add(kindNarrowTable, 1)
					}
					return true
				})
			}
			if f.count[kindNarrowTable] != tf.count[kindNarrowTable] {
				t.Errorf("%s: %d narrow tables streamed, %d in the tree", name, f.count[kindNarrowTable], tf.count[kindNarrowTable])
			}
			if err := ps.convert(pk, f); err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			if err := pk.write(&want); err != nil {
				t.Fatal(err)
			}
			if g, w := documentXML(t, got.Bytes()), documentXML(t, want.Bytes()); g != w {
				t.Errorf("%s: streamed layout\n%s\nwhole-tree layout\n%s", name, g, w)
			}
		}
	}
}

// TestTablesStreamRowByRow: a table of many rows, or one cell of many
// paragraphs, is handed over a paragraph or a cell's properties at a time,
// with the table and its row and cell as ancestors.
func TestTablesStreamRowByRow(t *testing.T) {
	var rows, cell strings.Builder
	for range 500 {
		rows.WriteString(`<w:tr><w:tc><w:p><w:r><w:t>نص</w:t></w:r></w:p></w:tc></w:tr>`)
		cell.WriteString(`<w:p><w:r><w:t>نص</w:t></w:r></w:p>`)
	}
	for _, body := range []string{
		`<w:tbl><w:tblPr/><w:tblGrid/>` + rows.String() + `</w:tbl>`,
		`<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:tc>` + cell.String() + `</w:tc></w:tr></w:tbl>`,
		`<w:tbl><w:tblPr/><w:tblGrid/><w:tr><w:tc><w:tbl><w:tblPr/><w:tblGrid/>` + rows.String() + `</w:tbl><w:p/></w:tc></w:tr></w:tbl>`,
	} {
		pk, err := openPkg(newBlob(miniDocx(t, body)))
		if err != nil {
			t.Fatal(err)
		}
		blocks, biggest := 0, 0
		err = pk.eachBlock(pk.mainDoc, nil, func(b storyBlock) {
			blocks++
			n := 0
			b.n.Walk(func(*node) bool { n++; return true })
			biggest = max(biggest, n)
			if b.n.IsW("p") && !b.c.IsW("tc") && !b.c.IsW("body") {
				t.Errorf("a paragraph in %s", b.c.Local)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if blocks < 500 || biggest > 10 {
			t.Errorf("%d blocks, the biggest of %d nodes: the table was not streamed", blocks, biggest)
		}
	}
}

// readFindings are what a layout shown the blocks of doc (as a render
// shows them) finds in it for req.
func readFindings(t *testing.T, l *Layout, doc []byte, req ports.LayoutRequest) *findings {
	t.Helper()
	pk, err := l.open(newBlob(doc))
	if err != nil {
		t.Fatal(err)
	}
	d, err := l.read(pk)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.prepare(req, nil, false); err != nil {
		t.Fatal(err)
	}
	return d.f
}

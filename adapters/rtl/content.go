package rtl

import (
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// layoutContent converts an element of a story part (body, header,
// footer, notes, comments): one block of it, or its root element.
// Paragraphs first, then tables and sections, which depend on the
// direction their paragraphs ended with.
func (ps *pass) layoutContent(r *node) {
	var paras, tables, sects []*node
	page := map[*node]pageGeom{} // the page of each paragraph and table: its section's
	r.Walk(func(n *node) bool {
		ps.geom = ps.cursor.visit(n)
		switch {
		case n.IsW("p"):
			paras = append(paras, n)
			page[n] = ps.geom
		case n.IsW("tbl"):
			tables = append(tables, n)
			page[n] = ps.geom
		case n.IsW("sectPr"):
			sects = append(sects, n)
		}
		if n.IsW("r") {
			ps.latinRunTwins(n)
		}
		if ps.m.flip {
			ps.mirrorDrawing(n)
		}
		return true
	})
	end := ps.cursor.done()
	defer func() { ps.geom = end }()
	for _, p := range paras {
		ps.geom = page[p]
		ps.paragraph(p)
	}
	r.Walk(func(n *node) bool {
		if n.IsW("rPrChange") || n.IsW("pPrChange") {
			return false
		}
		if n.IsW("rPr") {
			dropRepeats(n)
			ps.twins(n)
			ps.rtlRunTwins(n)
			ps.ownCSFont(n)
			ps.fonts(n)
			ps.lang(n, false)
		}
		return true
	})
	for _, t := range tables {
		ps.geom = page[t]
		ps.table(t)
	}
	for _, s := range sects {
		ps.section(s)
	}
}

// layoutBlock lays out a block of a story part (eachBlock) as
// layoutContent lays out the part's root element, and the properties of
// the streamed table the block begins.
func (ps *pass) layoutBlock(b storyBlock) {
	if b.part != ps.part {
		ps.startPart(b.part)
	}
	ps.layoutContent(b.c)
	if t := b.props; t != nil {
		tblPr := b.n
		if !tblPr.IsW("tblPr") {
			tblPr = ooxml.NewW(t.N, "tblPr")
			t.N.InsertAt(0, tblPr)
		}
		ps.tableProps(t.N, tblPr, b.facts)
	}
}

// startPart begins laying out or scanning story part name, on the page of
// its first section (sections.go).
func (ps *pass) startPart(name string) {
	ps.part = name
	ps.geom = ps.cursor.start(name, name == ps.mainPart)
}

// storyRuns lists a paragraph's runs in order without entering text boxes
// (their paragraphs are converted on their own).
func storyRuns(p *node) []*node {
	var runs []*node
	p.Walk(func(n *node) bool {
		if n.IsW("txbxContent") || n.IsW("p") || n.IsW("pPr") {
			return false
		}
		if n.IsW("r") {
			runs = append(runs, n)
			return false
		}
		return true
	})
	return runs
}

func runText(r *node) string {
	var b strings.Builder
	for _, t := range r.ChildrenW("t") {
		b.WriteString(t.TextOf())
	}
	return b.String()
}

// paraText is the text of a paragraph's own runs (storyRuns).
func paraText(runs []*node) string {
	var b strings.Builder
	for _, r := range runs {
		b.WriteString(runText(r))
	}
	return b.String()
}

// paraRTL is the direction paragraph gives a paragraph with text s.
func paraRTL(s string, targetRTL bool) bool {
	rtlText, latin := hasRTL(s), hasLatinLetter(s)
	if targetRTL {
		return rtlText || !latin // Latin-only paragraphs stay LTR (README "Right-to-left layout")
	}
	return rtlText && !latin // untranslated RTL quotations keep RTL
}

// paragraph sets the paragraph's direction and fixes its runs.
func (ps *pass) paragraph(p *node) {
	runs := storyRuns(p)
	s := paraText(runs)
	text := []rune(s)
	want := paraRTL(s, ps.m.targetRTL)
	// A Latin paragraph left untranslated keeps its direction even where
	// the engine wrote its punctuation in the target's form
	// (apertium-hin-urd turns every comma of English text into "،"): the
	// marks go back to Latin ones (runs) and the paragraph stays left to
	// right, as Latin-only paragraphs do.
	if want && ps.m.targetRTL && hasLatinLetter(s) && !hasRTLLetter(s) {
		want = false
	}
	// A paragraph of inline charts alone stays left to right (charts.go).
	chart := want && ps.m.targetRTL && strings.TrimSpace(s) == "" && inlineChart(p)
	if chart {
		want = false
		ps.alignChart(p)
	}
	if want == ps.styles.inheritedBidi(p) {
		if ppr := p.Child("pPr"); ppr != nil {
			ppr.RemoveW("bidi")
		}
	} else {
		setFlag(ensureFirst(p, "pPr"), "bidi", want, pPrOrder)
	}
	if ppr := p.Child("pPr"); ppr != nil {
		if ps.m.flip {
			ps.physicalPPr(ppr)
		}
		ps.mapKashida(ppr)
		if mark := ppr.Child("rPr"); mark != nil && !want {
			mark.RemoveW("rtl")
		}
	}
	ps.runs(runs, text, want)
}

// mapKashida maps Arabic-only justification to both where the target is
// not Arabic-script (brief row 4).
func (ps *pass) mapKashida(ppr *node) {
	if ps.m.arabicScript {
		return
	}
	if jc := ppr.Child("jc"); jc != nil {
		if v, _ := jc.Attr("val"); strings.HasSuffix(v, "Kashida") {
			jc.SetAttr("val", "both")
		}
	}
}

// table sets the visual cell order (brief row 19): bidiVisual on tables
// with RTL paragraphs in RTL output; an explicit val="0" otherwise (every
// table of LTR output, LTR→LTR included), since LibreOffice infers RTL
// from a bidi first cell.
func (ps *pass) table(t *node) {
	rtlContent := false
	t.Walk(func(n *node) bool {
		if n.IsW("p") && ps.styles.effectiveBidi(n) {
			rtlContent = true
		}
		return !rtlContent
	})
	f := treeFacts(t)
	f.rtl = rtlContent
	ps.tableProps(t, ensureFirst(t, "tblPr"), f)
}

// treeFacts are the widths of table t held whole, with its row and table
// when nested in a cell: its grid's and its cell's.
func treeFacts(t *node) tableFacts {
	f := tableFacts{grid: gridWidth(t)}
	if tc := t.Parent; tc != nil && tc.IsW("tc") {
		f.cell = cellText(tc)
	}
	return f
}

// tableFacts is what a table's properties depend on below them, and, for
// a nested table, around them: read from the laid-out tree (table,
// treeFacts), or, for a table streamed row by row, by the first streaming
// pass (pkg.direction) before its properties are written, and its cell's
// width as streamedTables saw the cell, its row and its table go by.
type tableFacts struct {
	rtl bool // a paragraph in it is right to left (for an RTL target, once laid out)
	// units are the translation units of its paragraphs, whose direction
	// is their translation's (Doc.Story looks at them), while rtl is false.
	units   []string
	grid    int  // the width of its grid (gridWidth)
	cell    int  // nested in a cell: the cell's text width (cellText), 0 when unknown
	hasPr   bool // streamed: it has a tblPr (else one is inserted before its first block)
	hasGrid bool // streamed: its (first) tblGrid was seen
}

// gridWidth is the sum of a table's grid columns.
func gridWidth(t *node) int {
	sum := 0
	for _, gc := range t.Child("tblGrid").ChildrenW("gridCol") {
		v, _ := strconv.Atoi(gc.AttrOr("w", "0"))
		sum += v
	}
	return sum
}

// tableProps lays out the properties tblPr of table t (whose rows may not
// be held: t has its ancestors and tblPr, see eachBlock).
func (ps *pass) tableProps(t, tblPr *node, f tableFacts) {
	setFlag(tblPr, "bidiVisual", ps.m.targetRTL && f.rtl, tblPrOrder)
	if ps.m.targetRTL && f.rtl {
		ps.spanTable(t, tblPr, f)
	}
	if ps.m.flip {
		ps.mirrorFloatingTable(tblPr, f.grid)
	}
}

// section sets sectPr/bidi (column order, gutter side) and rtlGutter.
func (ps *pass) section(s *node) {
	if ps.m.targetRTL {
		setFlag(s, "bidi", true, sectPrOrder)
	} else {
		s.RemoveW("bidi")
	}
	if g, _ := s.Child("pgMar").Attr("gutter"); g != "" && g != "0" && ps.m.targetRTL {
		setFlag(s, "rtlGutter", true, sectPrOrder)
	} else {
		s.RemoveW("rtlGutter")
	}
	if ps.m.flip {
		ps.mirrorSection(s)
	}
}

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
	r.Walk(func(n *node) bool {
		switch {
		case n.IsW("p"):
			paras = append(paras, n)
		case n.IsW("tbl"):
			tables = append(tables, n)
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
	for _, p := range paras {
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

// runs rewrites the text of a paragraph's runs (marks, digits) and splits
// them at direction boundaries so that w:rtl sits only on RTL-script and
// neutral text and never on a run with Latin letters.
func (ps *pass) runs(runs []*node, text []rune, paraRTL bool) {
	insert := map[int]bool{}
	if paraRTL && ps.m.targetRTL && hasRTL(string(text)) && !ps.useNative() {
		for _, i := range markPositions(text, ps.m.arabicScript) {
			insert[i] = true
		}
	}
	// Rebuild the text with marks so spans see them as neutrals.
	var full []rune
	for i, r := range text {
		if insert[i] {
			full = append(full, lrm)
		}
		full = append(full, ps.digit(r, paraRTL))
	}
	foreign := foreignSpans(full, paraRTL)
	pos, src := 0, 0
	for _, r := range runs {
		ps.splitRun(r, paraRTL, func(n int) ([]rune, []bool) {
			var out []rune
			var fl []bool
			for k := 0; k < n; k++ {
				if insert[src] {
					out = append(out, full[pos])
					fl = append(fl, foreign[pos])
					pos++
				}
				out = append(out, full[pos])
				fl = append(fl, foreign[pos])
				pos++
				src++
			}
			return out, fl
		})
	}
}

func (ps *pass) useNative() bool {
	_, ok := nativeDigits(ps.m.target)
	return ps.opts.NativeDigits && ok
}

// digit transliterates digits for the target (an option for Arabic and
// Persian) and back to 0–9 in LTR output.
func (ps *pass) digit(r rune, paraRTL bool) rune {
	if !ps.m.targetRTL || !paraRTL {
		if e, ok := europeanDigit(r); ok && ps.m.sourceRTL && !ps.m.targetRTL {
			return e
		}
		return r
	}
	if zero, ok := nativeDigits(ps.m.target); ok && ps.opts.NativeDigits && r >= '0' && r <= '9' {
		return zero + (r - '0')
	}
	return r
}

// piece is one child of a run after splitting: an element, or text with
// its per-rune direction.
type piece struct {
	elem    *node
	text    []rune
	foreign []bool
}

// splitRun replaces r by one run per direction span. next(n) yields the
// rewritten text and spans for the run's next n source runes.
func (ps *pass) splitRun(r *node, paraRTL bool, next func(n int) ([]rune, []bool)) {
	rpr := r.Child("rPr")
	var groups [][]*node // children per output run
	var flags []bool     // foreign flag per output run
	var cur []*node
	curFlag, started := false, false
	flush := func() {
		if len(cur) > 0 {
			groups = append(groups, cur)
			flags = append(flags, curFlag)
		}
		cur = nil
	}
	hasText, hasInstr := false, false
	for _, c := range r.Children {
		if c == rpr {
			continue
		}
		if !c.IsW("t") {
			if c.IsW("instrText") || c.IsW("fldChar") {
				hasInstr = true
			}
			cur = append(cur, c)
			continue
		}
		hasText = true
		orig := []rune(c.TextOf())
		txt, fl := next(len(orig))
		for i := 0; i < len(txt); {
			j := i
			for j < len(txt) && fl[j] == fl[i] {
				j++
			}
			if started && fl[i] != curFlag {
				flush()
			}
			curFlag, started = fl[i], true
			t := ooxml.NewW(c, "t")
			t.Attrs = append(t.Attrs[:0], c.Attrs...)
			seg := string(txt[i:j])
			if strings.TrimSpace(seg) != seg {
				setSpacePreserve(t)
			}
			t.SetText(seg)
			cur = append(cur, t)
			i = j
		}
		if len(txt) == 0 {
			cur = append(cur, c)
		}
	}
	flush()
	if !hasText {
		if hasInstr {
			return
		}
		if paraRTL && ps.m.targetRTL && !hostsText(r) {
			setFlag(ensureFirst(r, "rPr"), "rtl", true, rPrOrder)
		} else if rpr != nil && (!paraRTL || hostsText(r)) {
			// A run hosting a text box holds the box's paragraphs,
			// which have their own runs: w:rtl on the host would
			// cover their Latin text too (brief §5.1 rule 4).
			rpr.RemoveW("rtl")
		}
		return
	}
	parent := r.Parent
	at := parent.IndexOf(r)
	parent.Remove(r)
	for k, g := range groups {
		nr := &node{Kind: ooxml.ElemNode, Prefix: r.Prefix, Local: r.Local, NS: r.NS, Attrs: append(r.Attrs[:0:0], r.Attrs...)}
		if rpr != nil {
			nr.InsertAt(0, rpr.Clone())
		}
		for _, c := range g {
			nr.InsertAt(len(nr.Children), c)
		}
		rtlRun := flags[k] != paraRTL // foreign in LTR = RTL text; base in RTL
		if rtlRun {
			setFlag(ensureFirst(nr, "rPr"), "rtl", true, rPrOrder)
		} else if p := nr.Child("rPr"); p != nil {
			p.RemoveW("rtl")
			p.RemoveW("cs")
		}
		parent.InsertAt(at+k, nr)
	}
}

// hostsText: a run holding a drawing or VML shape with a text box.
func hostsText(r *node) bool {
	found := false
	r.Walk(func(n *node) bool {
		if n.IsW("txbxContent") {
			found = true
		}
		return !found
	})
	return found
}

func setSpacePreserve(t *node) {
	for _, a := range t.Attrs {
		if a.Name.Space == "xml" && a.Name.Local == "space" {
			return
		}
	}
	t.Attrs = append(t.Attrs, xmlSpacePreserve)
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

package rtl

import (
	"fmt"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/job"
	"sort"
	"strconv"
	"strings"
)

// Warning kinds, the lists of README "Right-to-left layout". Kinds of list A make the
// status partial, kinds of list B degraded.
type kind int

const (
	// List A: layout may differ.
	kindFloats kind = iota
	kindAsymmetric
	kindNarrowTable
	kindChart
	kindEquation
	kindArrowBullet
	kindRotated
	kindBookFold
	kindFields
	// List B: content not converted.
	kindSmartArt
	kindWordArt
	kindOLE
	kindPictures
	kindFont
	kindControls
	// Notes that do not lower the status.
	kindSubstitution
)

func (k kind) degrades() bool { return k >= kindSmartArt && k <= kindControls }
func (k kind) partial() bool  { return k < kindSmartArt }

// findings collects what a document contains, per kind.
type findings struct {
	count map[kind]int
	extra map[kind][]string // names (fonts) for the message
}

func newFindings() *findings {
	return &findings{count: map[kind]int{}, extra: map[kind][]string{}}
}

func (f *findings) add(k kind, n int) { f.count[k] += n }

func (f *findings) addName(k kind, name string) {
	for _, have := range f.extra[k] {
		if have == name {
			return
		}
	}
	f.count[k]++
	f.extra[k] = append(f.extra[k], name)
}

// scanStory counts the list A/B items of an element of a story part (a
// block, or the root element), but narrow tables (narrowing). mc:Fallback
// copies are skipped so duplicated content is counted once.
func (f *findings) scanStory(r *node) {
	r.Walk(func(n *node) bool {
		switch {
		case n.Is("Fallback", nsMC):
			return false
		case n.Is("anchor", nsWP, nsWPStrict):
			for _, h := range n.Children {
				if h.Is("positionH", nsWP, nsWPStrict) {
					for _, c := range h.Children {
						if c.Is("posOffset", nsWP, nsWPStrict) {
							f.add(kindFloats, 1)
						}
					}
				}
			}
		case n.NS == nsV && strings.Contains(n.AttrOr("style", ""), "position:absolute") && strings.Contains(n.AttrOr("style", ""), "margin-left"):
			f.add(kindFloats, 1)
		case n.IsW("framePr"):
			if _, ok := n.Attr("x"); ok {
				f.add(kindFloats, 1)
			}
		case n.IsW("tblpPr"):
			if _, ok := n.Attr("tblpX"); ok {
				f.add(kindFloats, 1)
			}
		case n.IsW("pBdr") || n.IsW("tblBorders") || n.IsW("tcBorders") || n.IsW("tblCellMar") || n.IsW("tcMar"):
			if asymmetric(n) {
				f.add(kindAsymmetric, 1)
			}
		case n.Is("chart", nsChart, nsChartStrict):
			f.add(kindChart, 1)
		case n.Is("oMath", nsMath, nsMathStrict):
			f.add(kindEquation, 1)
			return false
		case n.IsW("textDirection"):
			if v := n.AttrOr("val", "lrTb"); v != "lrTb" && v != "lr" {
				f.add(kindRotated, 1)
			}
		case n.IsW("fldSimple"):
			if updatableField(n.AttrOr("instr", "")) {
				f.add(kindFields, 1)
			}
		case n.IsW("instrText"):
			if updatableField(n.TextOf()) {
				f.add(kindFields, 1)
			}
		case n.Is("relIds", nsDgm, nsDgmStrict):
			f.add(kindSmartArt, 1)
		case n.Is("textpath", nsV) || n.Is("prstTxWarp", nsA, nsAStrict):
			f.add(kindWordArt, 1)
		case n.Is("OLEObject", nsO) || n.IsW("object"):
			f.add(kindOLE, 1)
			return false // its preview image is not a picture of text
		case n.Is("pic", nsPic, nsPicStrict) || n.Is("imagedata", nsV):
			f.add(kindPictures, 1)
		case n.IsW("control") || n.Is("contentPart", nsW14) || n.IsW("ffData"):
			f.add(kindControls, 1)
		case n.IsW("sym"):
			if r, ok := symRune(n); ok && unmappableDirectional[r] {
				f.add(kindArrowBullet, 1)
			}
		}
		return true
	})
}

func symRune(n *node) (rune, bool) {
	v, err := strconv.ParseUint(n.AttrOr("char", ""), 16, 32)
	if err != nil {
		return 0, false
	}
	r := rune(v)
	if r < 0xF000 {
		r += 0xF000
	}
	return r, true
}

var updatable = []string{"TOC", "REF", "PAGEREF", "NOTEREF", "SEQ", "STYLEREF"}

func updatableField(instr string) bool {
	f := strings.Fields(instr)
	if len(f) == 0 {
		return false
	}
	for _, u := range updatable {
		if strings.EqualFold(f[0], u) {
			return true
		}
	}
	return false
}

// narrowTable reports a table narrower than the text width (of the page,
// or of the cell holding it) or indented: Word aligns such RTL tables
// right, LibreOffice left (brief rows 20–21), inside a cell as on the page.
// t is held whole, its row and table with it.
func narrowTable(t *node, g pageGeom) bool {
	return narrowTableOf(t, t.Child("tblPr"), treeFacts(t), g)
}

// narrowing is what decides whether a table is narrow (narrowTableOf),
// read before the page is known: a table of a story part (by its order,
// for a streamed table, whose grid comes after its properties) or held
// whole (f).
type narrowing struct {
	part   string
	sect   int        // its section in the main part; -1: the part's (sections.of)
	index  int        // streamed: its index; -1: held whole, f is its facts
	f      tableFacts // held whole
	inCell bool
	cell   int   // streamed: the text width of the cell holding it (ooxml.Table.Cell)
	tblPr  *node // a copy of its properties (nil: none)
}

func narrowingOf(t, tblPr *node, part string, index int) narrowing {
	nw := narrowing{part: part, sect: -1, index: index, inCell: t.Parent != nil && t.Parent.IsW("tc")}
	if tblPr != nil {
		nw.tblPr = tblPr.Clone()
	}
	return nw
}

// narrow decides, with the page's geometry and the facts of the part's
// tables.
func (nw narrowing) narrow(tables map[string][]tableFacts, g pageGeom) bool {
	f := nw.f
	if nw.index >= 0 {
		if fs := tables[nw.part]; nw.index < len(fs) {
			f = fs[nw.index]
		}
		f.cell = nw.cell
	}
	t := &node{Kind: ooxml.ElemNode, Local: "tbl", NS: nsW}
	if nw.inCell {
		t.Parent = &node{Kind: ooxml.ElemNode, Local: "tc", NS: nsW}
	}
	return narrowTableOf(t, nw.tblPr, f, g)
}

// narrowTableOf is narrowTable on a table t whose properties are tblPr and
// whose grid and cell widths are f's (t may hold neither its rows nor its
// grid, nor its cell its properties: a table streamed row by row). A
// nested table in a cell of unknown width is not narrow.
func narrowTableOf(t, tblPr *node, f tableFacts, g pageGeom) bool {
	text := textWidth(t, f, g)
	if p := t.Parent; p != nil && p.IsW("tc") && text <= 0 {
		return false
	}
	if v := tblPr.Child("tblInd").AttrOr("w", "0"); v != "0" {
		return true
	}
	if w := tblPr.Child("tblW"); w != nil && w.AttrOr("type", "") == "pct" {
		v := w.AttrOr("w", "0")
		if pct, ok := strings.CutSuffix(v, "%"); ok {
			n, _ := strconv.ParseFloat(pct, 64)
			return n < 98
		}
		n, _ := strconv.ParseFloat(v, 64)
		return n < 4900
	}
	return f.grid > 0 && float64(f.grid) < 0.95*float64(text)
}

// fidelity turns findings into the API's report.
func (f *findings) fidelity(rtlTarget bool) *job.RTLReport {
	dir := "right-to-left"
	if !rtlTarget {
		dir = "left-to-right"
	}
	kinds := make([]kind, 0, len(f.count))
	for k, n := range f.count {
		if n > 0 {
			kinds = append(kinds, k)
		}
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i] < kinds[j] })
	status := "full"
	var warnings []string
	for _, k := range kinds {
		n := f.count[k]
		if k.degrades() {
			status = "degraded"
		} else if k.partial() && status == "full" {
			status = "partial"
		}
		warnings = append(warnings, message(k, n, dir, f.extra[k]))
	}
	if warnings == nil {
		warnings = []string{}
	}
	return &job.RTLReport{Status: status, Warnings: warnings}
}

func message(k kind, n int, dir string, names []string) string {
	switch k {
	case kindFloats:
		return fmt.Sprintf("%d floating objects use absolute positions; they were mirrored arithmetically and may overlap text differently.", n)
	case kindAsymmetric:
		return fmt.Sprintf("%d asymmetric borders or paddings: their side may differ between Word and other viewers.", n)
	case kindNarrowTable:
		return fmt.Sprintf("%d tables were narrower than the page (or than the cell holding them) or indented: Word and LibreOffice place such right-to-left tables on opposite sides, so they were widened to the text width of the page or cell (centred and floating tables kept, and may differ).", n)
	case kindChart:
		return fmt.Sprintf("%d charts: titles, series names and category labels were translated and the axes and a side legend mirrored, but the text inside the chart, data tables and 3-D views keep the source direction (LibreOffice also keeps a value-axis title on the left), and the embedded data keeps the source text.", n)
	case kindEquation:
		return fmt.Sprintf("%d equations are kept left-to-right.", n)
	case kindArrowBullet:
		return fmt.Sprintf("%d arrow or check-mark bullets could not be mirrored and may point the wrong way.", n)
	case kindRotated:
		return fmt.Sprintf("%d vertical or rotated text settings were not changed.", n)
	case kindBookFold:
		return "Book-fold or mirrored margins: check the binding side."
	case kindFields:
		return fmt.Sprintf("%d tables of contents or cross-reference fields must be updated in Word (the document is set to update fields on open).", n)
	case kindSmartArt:
		return fmt.Sprintf("%d SmartArt graphics: the text was translated in the diagram and its cached drawing alike, but the layout is not mirrored: shapes, arrows and reading order keep the source direction.", n)
	case kindWordArt:
		return fmt.Sprintf("%d WordArt texts were translated but are not laid out %s.", n, dir)
	case kindOLE:
		return fmt.Sprintf("%d embedded objects (Excel, Visio, …): their content was not translated or mirrored.", n)
	case kindPictures:
		return fmt.Sprintf("%d images may contain untranslated text in the source direction.", n)
	case kindFont:
		return fmt.Sprintf("Font %s; text will be shown in a fallback font.", strings.Join(names, "; "))
	case kindControls:
		return fmt.Sprintf("%d interactive controls (form fields, ActiveX, ink) were not mirrored.", n)
	case kindSubstitution:
		// Only the complex-script slot changes: Latin text keeps its font,
		// which a right-to-left source translated to English shows.
		return fmt.Sprintf("Fonts lacking the glyphs of the right-to-left or complex script were replaced for text in that script only (other text keeps its font): %s.", strings.Join(names, "; "))
	}
	return ""
}

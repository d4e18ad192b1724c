package rtl

import (
	"strconv"
)

// Word places a right-to-left (bidiVisual) table by its logical values:
// no jc, jc left/start and tblInd measure from the RIGHT margin. LibreOffice
// reads the same values physically and puts the table at the LEFT margin
// (brief rows 20–21, LO-code convertTableJustification). No jc or tblInd
// value means the same in both, but a table of width T−2·I (T the text
// width, I its indent) sits at the same place in both: Word puts its right
// edge I from the right margin, LibreOffice its left edge I from the left
// one. spanTable gives narrow RTL tables that width (the brief's
// "full-width tables avoid the difference"), as a percentage so that it
// follows the section's text width; centred tables stay as they are.
//
// A table nested in a cell is placed the same way inside the cell (Word
// from the cell's right edge, LibreOffice from its left): its width is
// taken against the cell's text width instead of the page's.
func (ps *pass) spanTable(t, tblPr *node) {
	if !ps.m.targetRTL || !ps.m.flip || tblPr.Child("tblpPr") != nil {
		return
	}
	text := ps.geom.text()
	if tc := t.Parent; tc != nil && tc.IsW("tc") {
		if !narrowNested(t) {
			return
		}
		text = cellText(tc)
	} else if !narrowTable(t, ps.geom) {
		return
	}
	jc := ps.tableProp(tblPr, "jc").AttrOr("val", "")
	if jc == "center" {
		return
	}
	ind := 0
	if jc != "right" && jc != "end" { // Word and LibreOffice ignore the indent of an end-aligned table
		if in := ps.tableProp(tblPr, "tblInd"); in.AttrOr("type", "dxa") == "dxa" {
			ind, _ = strconv.Atoi(in.AttrOr("w", "0"))
		}
	}
	if text <= 0 || 2*ind >= text {
		return
	}
	pct := 5000 * (text - 2*ind) / text
	w := ensure(tblPr, "tblW", tblPrOrder)
	w.SetAttr("w", strconv.Itoa(pct))
	w.SetAttr("type", "pct")
}

// tableProp is a table property set directly or by the table's style
// chain (w:basedOn), nil if neither sets it.
func (ps *pass) tableProp(tblPr *node, local string) *node {
	if c := tblPr.Child(local); c != nil {
		return c
	}
	id := tblPr.Child("tblStyle").AttrOr("val", "")
	for depth := 0; depth < 32 && id != ""; depth++ {
		st := ps.styles.byID[id]
		if st == nil {
			return nil
		}
		if c := st.Child("tblPr").Child(local); c != nil {
			return c
		}
		id = st.Child("basedOn").AttrOr("val", "")
	}
	return nil
}

// narrowNested reports a table nested in a cell that is narrower than the
// cell's text width or indented.
func narrowNested(t *node) bool {
	tc := t.Parent
	if tc == nil || !tc.IsW("tc") {
		return false
	}
	w := cellText(tc)
	return w > 0 && narrowIn(t, w)
}

// cellText is the text width of a table cell in twips: its tcW, or the
// width of the grid columns it spans, less the default cell margins (108
// twips a side in Word and LibreOffice); 0 when unknown.
func cellText(tc *node) int {
	const margins = 2 * 108
	if w := tc.Child("tcPr").Child("tcW"); w.AttrOr("type", "dxa") == "dxa" {
		if v, err := strconv.Atoi(w.AttrOr("w", "")); err == nil && v > margins {
			return v - margins
		}
	}
	tr := tc.Parent
	if tr == nil || !tr.IsW("tr") || tr.Parent == nil || !tr.Parent.IsW("tbl") {
		return 0
	}
	var grid []int
	for _, gc := range tr.Parent.Child("tblGrid").ChildrenW("gridCol") {
		v, _ := strconv.Atoi(gc.AttrOr("w", "0"))
		grid = append(grid, v)
	}
	col := 0
	if v, err := strconv.Atoi(tr.Child("trPr").Child("gridBefore").AttrOr("val", "")); err == nil {
		col = v
	}
	for _, c := range tr.ChildrenW("tc") {
		span := 1
		if v, err := strconv.Atoi(c.Child("tcPr").Child("gridSpan").AttrOr("val", "")); err == nil && v > 0 {
			span = v
		}
		if c == tc {
			w := 0
			for i := col; i < col+span && i < len(grid); i++ {
				w += grid[i]
			}
			if w > margins {
				return w - margins
			}
			return 0
		}
		col += span
	}
	return 0
}

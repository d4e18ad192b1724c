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
// taken against the cell's text width instead of the page's (f.cell).
func (ps *pass) spanTable(t, tblPr *node, f tableFacts) {
	if !ps.m.targetRTL || !ps.m.flip || tblPr.Child("tblpPr") != nil || !narrowTableOf(t, tblPr, f, ps.geom) {
		return
	}
	jc := ps.tableProp(tblPr, "jc").AttrOr("val", "")
	if jc == "center" {
		return
	}
	text := textWidth(t, f, ps.geom)
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

// textWidth is the width table t spans when it is full width: the page's
// text width, or, nested in a cell, the cell's (f.cell, 0 when unknown).
func textWidth(t *node, f tableFacts, g pageGeom) int {
	if p := t.Parent; p != nil && p.IsW("tc") {
		return f.cell
	}
	return g.text()
}

// cellText is the text width of table cell tc held in a tree with its row
// and table (cellTextOf): 0 when unknown. A cell streamed row by row has
// its width from what streamedTables saw of its row and table instead.
func cellText(tc *node) int {
	tr := tc.Parent
	if tr == nil || !tr.IsW("tr") || tr.Parent == nil || !tr.Parent.IsW("tbl") {
		return cellTextOf(tc.Child("tcPr"), nil, 0)
	}
	grid := gridCols(tr.Parent.Child("tblGrid"))
	col := gridBefore(tr.Child("trPr"))
	for _, c := range tr.ChildrenW("tc") {
		if c == tc {
			break
		}
		col += cellSpan(c.Child("tcPr"))
	}
	return cellTextOf(tc.Child("tcPr"), grid, col)
}

// cellTextOf is the text width in twips of a table cell with properties
// tcPr starting at grid column col of a table whose grid columns are grid:
// its tcW, or the width of the grid columns it spans, less the default
// cell margins (108 twips a side in Word and LibreOffice); 0 when unknown.
func cellTextOf(tcPr *node, grid []int, col int) int {
	const margins = 2 * 108
	if w := tcPr.Child("tcW"); w.AttrOr("type", "dxa") == "dxa" {
		if v, err := strconv.Atoi(w.AttrOr("w", "")); err == nil && v > margins {
			return v - margins
		}
	}
	w := 0
	for i := max(col, 0); i < col+cellSpan(tcPr) && i < len(grid); i++ {
		w += grid[i]
	}
	if w > margins {
		return w - margins
	}
	return 0
}

// cellSpan is the number of grid columns a cell with properties tcPr spans.
func cellSpan(tcPr *node) int {
	if v, err := strconv.Atoi(tcPr.Child("gridSpan").AttrOr("val", "")); err == nil && v > 0 {
		return v
	}
	return 1
}

// gridBefore is the grid column the first cell of a row with properties
// trPr starts at.
func gridBefore(trPr *node) int {
	v, _ := strconv.Atoi(trPr.Child("gridBefore").AttrOr("val", ""))
	return v
}

// gridCols are the widths of the columns of grid tblGrid.
func gridCols(tblGrid *node) []int {
	var cols []int
	for _, gc := range tblGrid.ChildrenW("gridCol") {
		v, _ := strconv.Atoi(gc.AttrOr("w", "0"))
		cols = append(cols, v)
	}
	return cols
}

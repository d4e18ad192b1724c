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
func (ps *pass) spanTable(t, tblPr *node, grid int) {
	if !ps.m.targetRTL || !ps.m.flip || tblPr.Child("tblpPr") != nil || !narrowTableOf(t, tblPr, grid, ps.geom) {
		return
	}
	jc := ps.tableProp(tblPr, "jc").AttrOr("val", "")
	if jc == "center" {
		return
	}
	text := ps.geom.text()
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

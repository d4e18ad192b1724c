package bilingual

import (
	"strconv"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// cellMargin is a table cell's default left and right margin in twips
// (Word's and LibreOffice's).
const cellMargin = 108

// fit scales what is wider than a column down to it: inline pictures
// (their extent and their shape's), tables (grid, cell and table widths
// and indent in twips) and paragraphs' tab stops, their own and those
// their styles give them.
func fit(n *ooxml.Node, cellW int, styles *styleSheet) {
	limit := int64(cellW) * emuPerTwip
	var scale func(k *ooxml.Node)
	scale = func(k *ooxml.Node) {
		if k.Is("inline", nsWP) {
			ext := childNS(k, "extent", nsWP)
			cx := int64(atoi(attrOf(ext, "cx"), 0))
			if cx > limit {
				f := float64(limit) / float64(cx)
				k.Walk(func(e *ooxml.Node) bool {
					if e.Is("extent", nsWP) || e.Is("ext", nsA) {
						scaleAttr(e, "cx", f)
						scaleAttr(e, "cy", f)
					}
					return true
				})
			}
		}
	}
	scale(n)
	n.Walk(func(k *ooxml.Node) bool { scale(k); return true })
	fitTables(n, cellW)
	fitTabs(n, cellW-2*cellMargin, styles)
}

// fitTables scales the tables in n whose grid is wider than cellW.
func fitTables(n *ooxml.Node, cellW int) {
	var tables []*ooxml.Node
	if n.IsW("tbl") {
		tables = append(tables, n)
	}
	tables = append(tables, n.FindAllW("tbl")...)
	for _, t := range tables {
		total := 0
		if g := t.Child("tblGrid"); g != nil {
			for _, col := range g.ChildrenW("gridCol") {
				total += atoi(col.AttrOr("w", ""), 0)
			}
		}
		if total <= cellW || total == 0 {
			continue
		}
		f := float64(cellW) / float64(total)
		for _, col := range t.Child("tblGrid").ChildrenW("gridCol") {
			scaleAttr(col, "w", f)
		}
		t.Walk(func(k *ooxml.Node) bool {
			if (k.IsW("tcW") || k.IsW("tblW") || k.IsW("tblInd")) && k.AttrOr("type", "dxa") == "dxa" {
				scaleAttr(k, "w", f)
			}
			return true
		})
	}
}

func childNS(n *ooxml.Node, local, ns string) *ooxml.Node {
	for _, c := range n.Children {
		if c.Kind == ooxml.ElemNode && c.Is(local, ns) {
			return c
		}
	}
	return nil
}

func attrOf(n *ooxml.Node, local string) string {
	if n == nil {
		return ""
	}
	return n.AttrOr(local, "")
}

func scaleAttr(n *ooxml.Node, local string, f float64) {
	if v, err := strconv.ParseInt(n.AttrOr(local, ""), 10, 64); err == nil {
		n.SetAttr(local, strconv.FormatInt(int64(float64(v)*f), 10))
	}
}

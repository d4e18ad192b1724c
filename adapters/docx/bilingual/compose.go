package bilingual

import (
	"encoding/xml"
	"fmt"
	"strconv"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// composition rebuilds a translated body as rows of source beside target.
type composition struct {
	body    *ooxml.Node // the translation's w:body, rebuilt in place
	cellW   int         // each column's width in twips
	numbers *numbers    // the source column's own lists
	styles  *styleSheet // the translation's, which both columns use
	ids     *drawingIDs // docPr ids, unique across both columns
	out     []*ooxml.Node
	table   *ooxml.Node // the table rows are added to; nil between sections
	pending []*ooxml.Node
}

func newComposition(body, numbering *ooxml.Node, styles *styleSheet) *composition {
	c := &composition{body: body, numbers: newNumbers(numbering), ids: newDrawingIDs(body), styles: styles}
	c.cellW = textWidth(body.Child("sectPr")) / 2
	return c
}

// isBlock: a body element that becomes a row.
func isBlock(n *ooxml.Node) bool {
	return n.IsW("p") || n.IsW("tbl") || n.IsW("sdt") || n.IsW("customXml")
}

// compose pairs the source's body elements with the translation's, one
// for one (the translation was assembled from the source), and rebuilds
// the body: rows of a two-column table, broken where a section ends (a
// paragraph holding w:sectPr stays a paragraph of the body, translated,
// and so do the empty paragraphs before it: endsSection), with the final
// w:sectPr last.
func (c *composition) compose(src, tgt []*ooxml.Node) error {
	if len(src) != len(tgt) {
		return fmt.Errorf("%w: %d body elements in the source, %d in the translation", ErrStructure, len(src), len(tgt))
	}
	var final *ooxml.Node
	plain := endsSection(src)
	for i, t := range tgt {
		s := src[i]
		if s.Local != t.Local {
			return fmt.Errorf("%w: element %d is %s in the source, %s in the translation", ErrStructure, i, s.Local, t.Local)
		}
		switch {
		case t.IsW("sectPr"):
			final = t
		case isBreak(t) || plain[i]:
			// A section break (the sections keep their own page setup),
			// or an empty paragraph before one.
			c.flush()
			c.out = append(c.out, t)
			c.table = nil
		case isBlock(t):
			c.row(s, t)
		default: // bookmarks, permissions, proofing marks between blocks
			c.pending = append(c.pending, t)
		}
	}
	c.flush()
	c.body.Children = nil
	for _, n := range c.out {
		c.add(n)
	}
	if final != nil {
		c.add(final)
	}
	return nil
}

func (c *composition) add(n *ooxml.Node) {
	n.Parent = c.body
	c.body.Children = append(c.body.Children, n)
}

// flush adds what waits for a row to the last one.
func (c *composition) flush() {
	if len(c.pending) == 0 {
		return
	}
	if c.table == nil {
		c.out = append(c.out, c.pending...)
	} else {
		rows := c.table.ChildrenW("tr")
		cell := rows[len(rows)-1].ChildrenW("tc")[1]
		p := cell.ChildrenW("p")
		for _, n := range c.pending {
			if last := p[len(p)-1]; last != nil {
				n.Parent = last
				last.Children = append(last.Children, n)
			}
		}
	}
	c.pending = nil
}

// row adds source block s beside its translation t.
func (c *composition) row(s, t *ooxml.Node) {
	if c.table == nil {
		c.table = c.newTable(t)
		c.out = append(c.out, c.table)
	}
	s = s.Clone()
	c.sourceCopy(s)
	fit(t, c.cellW, c.styles)
	fit(s, c.cellW, c.styles)
	tr := w(t, "tr")
	for _, content := range []*ooxml.Node{s, t} {
		tc := w(t, "tc")
		tcPr := w(t, "tcPr")
		tcPr.Children = append(tcPr.Children, width(t, "tcW", c.cellW, "dxa"))
		appendAll(tc, tcPr)
		blocks := unwrap(content)
		appendAll(tc, blocks...)
		if len(blocks) == 0 || blocks[len(blocks)-1].IsW("tbl") { // a cell ends with a paragraph
			appendAll(tc, w(t, "p"))
		}
		appendAll(tr, tc)
	}
	if t.IsW("p") { // what came between blocks opens this one (after its properties)
		at := 0
		if len(t.Children) > 0 && t.Children[0].IsW("pPr") {
			at = 1
		}
		for i, n := range c.pending {
			t.InsertAt(at+i, n)
		}
		c.pending = nil
	}
	appendAll(c.table, tr)
}

// newTable starts the two-column table: full text width, fixed columns,
// a light rule between them.
func (c *composition) newTable(like *ooxml.Node) *ooxml.Node {
	tbl := w(like, "tbl")
	tblPr := w(like, "tblPr")
	borders := w(like, "tblBorders")
	rule := w(like, "insideV")
	rule.Attrs = wAttrs(like, "val", "single", "sz", "4", "space", "0", "color", "BFBFBF")
	appendAll(borders, rule)
	layout := w(like, "tblLayout")
	layout.Attrs = wAttrs(like, "type", "fixed")
	look := w(like, "tblLook")
	look.Attrs = wAttrs(like, "val", "0000", "firstRow", "0", "lastRow", "0", "firstColumn", "0", "lastColumn", "0", "noHBand", "1", "noVBand", "1")
	appendAll(tblPr, width(like, "tblW", 5000, "pct"), borders, layout, look)
	grid := w(like, "tblGrid")
	for i := 0; i < 2; i++ {
		col := w(like, "gridCol")
		col.Attrs = wAttrs(like, "w", strconv.Itoa(c.cellW))
		appendAll(grid, col)
	}
	appendAll(tbl, tblPr, grid)
	return tbl
}

// textWidth is the text width of a section in twips (A4 with 1" margins
// when the section does not say).
func textWidth(sect *ooxml.Node) int {
	page, left, right := 11906, 1440, 1440
	if sect != nil {
		if sz := sect.Child("pgSz"); sz != nil {
			page = atoi(sz.AttrOr("w", ""), page)
		}
		if m := sect.Child("pgMar"); m != nil {
			left = atoi(m.AttrOr("left", ""), left) + atoi(m.AttrOr("gutter", ""), 0)
			right = atoi(m.AttrOr("right", ""), right)
		}
	}
	return max(page-left-right, 2880)
}

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// w makes a WordprocessingML element with like's prefix.
func w(like *ooxml.Node, local string) *ooxml.Node {
	return &ooxml.Node{Kind: ooxml.ElemNode, Prefix: like.Prefix, Local: local, NS: like.NS}
}

// wAttrs are w:-prefixed attributes from name, value pairs.
func wAttrs(like *ooxml.Node, kv ...string) []xml.Attr {
	var out []xml.Attr
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, xml.Attr{Name: xml.Name{Space: like.Prefix, Local: kv[i]}, Value: kv[i+1]})
	}
	return out
}

func width(like *ooxml.Node, local string, v int, typ string) *ooxml.Node {
	n := w(like, local)
	n.Attrs = wAttrs(like, "w", strconv.Itoa(v), "type", typ)
	return n
}

func appendAll(parent *ooxml.Node, kids ...*ooxml.Node) {
	for _, k := range kids {
		k.Parent = parent
		parent.Children = append(parent.Children, k)
	}
}

// unwrap is a block as a cell holds it: a block-level content control or
// custom XML element gives its content (LibreOffice ends a table at a
// content control inside a cell), any other block itself.
func unwrap(n *ooxml.Node) []*ooxml.Node {
	var inner *ooxml.Node
	switch {
	case n.IsW("sdt"):
		inner = n.Child("sdtContent")
	case n.IsW("customXml"):
		inner = n
	default:
		return []*ooxml.Node{n}
	}
	var out []*ooxml.Node
	if inner == nil {
		return nil
	}
	for _, c := range elems(inner) {
		if c.IsW("customXmlPr") {
			continue
		}
		out = append(out, unwrap(c)...)
	}
	return out
}

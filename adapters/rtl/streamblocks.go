package rtl

import "github.com/dragoman-translate/dragoman/adapters/ooxml"

// storyContainer tells the elements of a story part that hold its blocks:
// the root element (w:document, w:hdr, w:ftr, w:footnotes, w:endnotes,
// w:comments), the body, the notes and comments, content controls and
// custom XML wrapping body content, and tables, their rows and cells
// (streamedTables decides which). Every other element under them (a
// paragraph, a table's properties or grid, a cell's properties, a
// section's properties) is a block, laid out on its own: nothing the
// layout does to one looks at another, except a table's properties, which
// depend on the paragraphs below them (tableFacts, gathered by the first
// pass).
func storyContainer(n *node) bool {
	if n.Parent.Kind == ooxml.RawNode {
		return true
	}
	for _, c := range []string{"body", "sdt", "sdtContent", "customXml", "footnote", "endnote", "comment", "tbl", "tr", "tc"} {
		if n.IsW(c) {
			return true
		}
	}
	return false
}

// streamedTable is a table eachBlock streams row by row.
type streamedTable struct {
	n         *node
	index     int  // its order among the part's streamed tables, by start tag
	begun     bool // a block directly in it (its tblPr, its grid) was handed over
	propsDone bool // its properties were handed over (storyBlock.props)
	// cell is the text width of the cell holding it (cellTextOf, as
	// cellText finds it in a tree), 0 when it is not in a cell or that is
	// unknown; set as it starts (tableFacts.cell).
	cell int
	// As it is streamed: its grid columns (gridCols of its first tblGrid),
	// the row directly in it being streamed, and the grid column the next
	// cell directly in that row starts at (gridBefore, then each cell's
	// span), for the cells' widths (streamedCell).
	grid    []int
	hasGrid bool
	row     *node
	rowPr   bool // row's (first) trPr was seen
	next    int
}

// streamedCell is a cell of a streamed table being streamed, as
// streamedTables follows it for the tables nested in it.
type streamedCell struct {
	n    *node
	tcPr *node // its (first) properties, once handed over
	// in is the table whose row holds it directly (nil if none: cellText
	// then knows no grid either); grid and col are that table's grid
	// columns and the column the cell starts at.
	in   *streamedTable
	grid []int
	col  int
}

// storyBlock is a block of a story part as eachBlock hands it over.
type storyBlock struct {
	part string // the story part's name
	n    *node
	// c is n's container, which holds n alone: walking c (Walk visits
	// descendants) walks n as the whole part's root element walks it.
	c *node
	// tables are the streamed tables holding n, outermost first.
	tables []*streamedTable
	// props is the table whose properties are to be laid out with n: n is
	// its tblPr, or, where it has none, its first block, before which one
	// is inserted (tableFacts.hasPr; whitespace before that block, already
	// written, then precedes the new tblPr instead of following it);
	// facts are its facts.
	props *streamedTable
	facts tableFacts
}

// streamedTables follows the tables of one story part as it is streamed.
// A table is streamed (a container) as its parent is; its rows and cells
// too, once a block directly in the table (its tblPr or tblGrid, which
// schema puts first) has been handed over, so the table's properties are
// met before its rows: a table without either has its first child held
// whole, as before. It also follows the grid, rows and cells of the
// streamed tables, so that a table nested in a cell knows the cell's width
// though the cell's properties, its row's and its table's grid are
// written and dropped by then.
type streamedTables struct {
	open  []*streamedTable // innermost last
	cells []*streamedCell  // the open cells of streamed tables, innermost last
	count int
}

// under drops the tables and cells that are not ancestors of n (they are
// complete).
func (s *streamedTables) under(n *node) {
	for len(s.open) > 0 && !ancestor(s.open[len(s.open)-1].n, n) {
		s.open = s.open[:len(s.open)-1]
	}
	for len(s.cells) > 0 && !ancestor(s.cells[len(s.cells)-1].n, n) {
		s.cells = s.cells[:len(s.cells)-1]
	}
}

// ancestor reports whether a is an ancestor of n.
func ancestor(a, n *node) bool {
	p := n.Parent
	for p != nil && p != a {
		p = p.Parent
	}
	return p != nil
}

// cell is the innermost open cell, nil if none.
func (s *streamedTables) cell() *streamedCell {
	if len(s.cells) == 0 {
		return nil
	}
	return s.cells[len(s.cells)-1]
}

// container is storyContainer for the part being streamed.
func (s *streamedTables) container(n *node) bool {
	if !storyContainer(n) {
		return false
	}
	if n.Parent.Kind == ooxml.RawNode {
		return true
	}
	s.under(n)
	if len(s.open) > 0 {
		if top := s.open[len(s.open)-1]; n.Parent == top.n && !top.begun {
			return false
		}
	}
	var top *streamedTable
	if len(s.open) > 0 {
		top = s.open[len(s.open)-1]
	}
	switch {
	case n.IsW("tbl"):
		t := &streamedTable{n: n, index: s.count}
		if c := s.cell(); c != nil && n.Parent == c.n {
			t.cell = cellTextOf(c.tcPr, c.grid, c.col)
		}
		s.open = append(s.open, t)
		s.count++
	case n.IsW("tr") && top != nil && n.Parent == top.n:
		top.row, top.rowPr, top.next = n, false, 0
	case n.IsW("tc"):
		c := &streamedCell{n: n}
		if top != nil && top.row != nil && n.Parent == top.row {
			c.in, c.grid, c.col = top, top.grid, top.next
			top.next++ // one column, unless its tcPr says more
		}
		s.cells = append(s.cells, c)
	}
	return true
}

// follow notes what block b says about the grid, rows and cells of the
// streamed tables (see streamedTables): a table's grid, a row's trPr, a
// cell's tcPr.
func (s *streamedTables) follow(b *node) {
	if c := s.cell(); c != nil && b.Parent == c.n && b.IsW("tcPr") && c.tcPr == nil {
		c.tcPr = b
		if c.in != nil {
			c.in.next = c.col + cellSpan(b)
		}
	}
	if len(s.open) == 0 {
		return
	}
	top := s.open[len(s.open)-1]
	switch {
	case b.Parent == top.n && b.IsW("tblGrid") && !top.hasGrid:
		top.grid, top.hasGrid = gridCols(b), true
	case top.row != nil && b.Parent == top.row && b.IsW("trPr") && !top.rowPr:
		top.rowPr, top.next = true, gridBefore(b)
	}
}

// block describes block b.
func (s *streamedTables) block(part string, b *node, facts []tableFacts) storyBlock {
	s.under(b)
	s.follow(b)
	sb := storyBlock{part: part, n: b, c: b.Parent, tables: s.open}
	if len(s.open) == 0 {
		return sb
	}
	top := s.open[len(s.open)-1]
	if b.Parent != top.n {
		return sb
	}
	if !top.propsDone {
		if top.index < len(facts) {
			sb.facts = facts[top.index]
		}
		sb.facts.cell = top.cell
		if b.IsW("tblPr") || !sb.facts.hasPr {
			sb.props, top.propsDone = top, true
		}
	}
	top.begun = true
	return sb
}

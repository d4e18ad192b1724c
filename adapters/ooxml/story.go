package ooxml

import (
	"io"
	"strconv"
)

// A story part (body, header, footer, notes, comments) is read and
// written block by block (StreamBlocks), so memory is bounded by the
// largest block, not the part. Its containers are the root element
// (w:document, w:hdr, w:ftr, w:footnotes, w:endnotes, w:comments), the
// body, the notes and comments, content controls and custom XML wrapping
// body content, and tables, their rows and cells. Every other element
// under them (a paragraph, a table's properties or grid, a cell's
// properties, a section's properties) is a block: the DOCX engine's
// extraction and render, the RTL layout and the structure check all see
// the same blocks, in the same order.
//
// A table is streamed (a container) as its parent is; its rows and cells
// too, once a block directly in the table (its tblPr or tblGrid, which the
// schema puts first) has been handed over, so the table's properties are
// met before its rows: a table with neither has its first child held
// whole. The stream follows the grid, rows and cells of the streamed
// tables, so that a table nested in a cell knows the cell's width though
// the cell's properties, its row's and its table's grid are written and
// dropped by then.

// Block is a block of a story part as StreamStory hands it over.
type Block struct {
	N *Node
	// C is N's container, which holds N alone: walking C (Walk visits
	// descendants) walks N as the whole part's root element walks it.
	C *Node
	// Tables are the streamed tables holding N, outermost first.
	Tables []*Table
}

// Table is a table StreamStory streams row by row.
type Table struct {
	N     *Node
	Index int // its order among the part's streamed tables, by start tag
	// Cell is the text width of the cell holding it (CellTextWidth, as a
	// tree would give it), 0 when it is not in a cell or that is unknown.
	Cell int
	// Grid is its grid columns (of its first tblGrid) once handed over.
	Grid    []int
	HasGrid bool

	begun bool  // a block directly in it (its tblPr, its grid) was handed over
	row   *Node // the row directly in it being streamed
	rowPr bool  // row's (first) trPr was seen
	next  int   // the grid column the next cell directly in row starts at
}

// storyCell is a cell of a streamed table being streamed.
type storyCell struct {
	n    *Node
	tcPr *Node  // its (first) properties, once handed over
	in   *Table // the table whose row holds it directly (nil if none)
	grid []int  // in's grid columns
	col  int    // the column the cell starts at
}

// StoryStream streams a story part (StreamStory).
type StoryStream struct {
	// Block is called with each block, attached to its containers.
	Block func(*Block) error
	// Open, when set, is called with each container as it opens, with the
	// streamed tables holding it (a table itself included).
	Open func(n *Node, tables []*Table)

	open  []*Table     // innermost last
	cells []*storyCell // the open cells of streamed tables, innermost last
	count int
}

// StreamStory reads a story part from r block by block, calling s.Block
// with each; with w, the part is written as the blocks were left.
func StreamStory(r io.Reader, w io.Writer, s *StoryStream) error {
	return StreamBlocks(r, w, s.container, func(b *Node) error { return s.Block(s.block(b)) })
}

// storyContainer tells the elements of a story part that hold blocks.
func storyContainer(n *Node) bool {
	if n.Parent.Kind == RawNode {
		return true
	}
	for _, c := range []string{"body", "sdt", "sdtContent", "customXml", "footnote", "endnote", "comment", "tbl", "tr", "tc"} {
		if n.IsW(c) {
			return true
		}
	}
	return false
}

// under drops the tables and cells that are not ancestors of n (they are
// complete).
func (s *StoryStream) under(n *Node) {
	for len(s.open) > 0 && !ancestor(s.open[len(s.open)-1].N, n) {
		s.open = s.open[:len(s.open)-1]
	}
	for len(s.cells) > 0 && !ancestor(s.cells[len(s.cells)-1].n, n) {
		s.cells = s.cells[:len(s.cells)-1]
	}
}

// ancestor reports whether a is an ancestor of n.
func ancestor(a, n *Node) bool {
	p := n.Parent
	for p != nil && p != a {
		p = p.Parent
	}
	return p != nil
}

func (s *StoryStream) cell() *storyCell {
	if len(s.cells) == 0 {
		return nil
	}
	return s.cells[len(s.cells)-1]
}

func (s *StoryStream) container(n *Node) bool {
	if !s.isContainer(n) {
		return false
	}
	if s.Open != nil {
		s.Open(n, s.open)
	}
	return true
}

func (s *StoryStream) isContainer(n *Node) bool {
	if !storyContainer(n) {
		return false
	}
	if n.Parent.Kind == RawNode {
		return true
	}
	s.under(n)
	var top *Table
	if len(s.open) > 0 {
		top = s.open[len(s.open)-1]
		if n.Parent == top.N && !top.begun {
			return false
		}
	}
	switch {
	case n.IsW("tbl"):
		t := &Table{N: n, Index: s.count}
		if c := s.cell(); c != nil && n.Parent == c.n {
			t.Cell = CellTextWidth(c.tcPr, c.grid, c.col)
		}
		s.open = append(s.open, t)
		s.count++
	case n.IsW("tr") && top != nil && n.Parent == top.N:
		top.row, top.rowPr, top.next = n, false, 0
	case n.IsW("tc"):
		c := &storyCell{n: n}
		if top != nil && top.row != nil && n.Parent == top.row {
			c.in, c.grid, c.col = top, top.Grid, top.next
			top.next++ // one column, unless its tcPr says more
		}
		s.cells = append(s.cells, c)
	}
	return true
}

// follow notes what block b says about the grid, rows and cells of the
// streamed tables: a table's grid, a row's trPr, a cell's tcPr.
func (s *StoryStream) follow(b *Node) {
	if c := s.cell(); c != nil && b.Parent == c.n && b.IsW("tcPr") && c.tcPr == nil {
		c.tcPr = b
		if c.in != nil {
			c.in.next = c.col + CellSpan(b)
		}
	}
	if len(s.open) == 0 {
		return
	}
	top := s.open[len(s.open)-1]
	switch {
	case b.Parent == top.N && b.IsW("tblGrid") && !top.HasGrid:
		top.Grid, top.HasGrid = GridCols(b), true
	case top.row != nil && b.Parent == top.row && b.IsW("trPr") && !top.rowPr:
		top.rowPr, top.next = true, GridBefore(b)
	}
}

func (s *StoryStream) block(b *Node) *Block {
	s.under(b)
	s.follow(b)
	sb := &Block{N: b, C: b.Parent, Tables: s.open}
	if n := len(s.open); n > 0 && b.Parent == s.open[n-1].N {
		s.open[n-1].begun = true
	}
	return sb
}

// CellTextWidth is the text width in twips of a table cell with
// properties tcPr starting at grid column col of a table whose grid
// columns are grid: its tcW, or the width of the grid columns it spans,
// less the default cell margins (108 twips a side in Word and
// LibreOffice); 0 when unknown.
func CellTextWidth(tcPr *Node, grid []int, col int) int {
	const margins = 2 * 108
	if w := tcPr.Child("tcW"); w.AttrOr("type", "dxa") == "dxa" {
		if v, err := strconv.Atoi(w.AttrOr("w", "")); err == nil && v > margins {
			return v - margins
		}
	}
	w := 0
	for i := max(col, 0); i < col+CellSpan(tcPr) && i < len(grid); i++ {
		w += grid[i]
	}
	if w > margins {
		return w - margins
	}
	return 0
}

// CellSpan is the number of grid columns a cell with properties tcPr spans.
func CellSpan(tcPr *Node) int {
	if v, err := strconv.Atoi(tcPr.Child("gridSpan").AttrOr("val", "")); err == nil && v > 0 {
		return v
	}
	return 1
}

// GridBefore is the grid column the first cell of a row with properties
// trPr starts at.
func GridBefore(trPr *Node) int {
	v, _ := strconv.Atoi(trPr.Child("gridBefore").AttrOr("val", ""))
	return v
}

// GridCols are the widths of the columns of grid tblGrid.
func GridCols(tblGrid *Node) []int {
	var cols []int
	for _, gc := range tblGrid.ChildrenW("gridCol") {
		v, _ := strconv.Atoi(gc.AttrOr("w", "0"))
		cols = append(cols, v)
	}
	return cols
}

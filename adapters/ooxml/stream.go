package ooxml

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// StreamBlocks is Parse for a part too large to hold as one tree (a story
// part of 100 MB builds a gigabyte of tree): it reads r and hands the part
// over one block at a time, so memory is bounded by the largest block, not
// the part.
//
// container decides which elements hold blocks; it is asked for the root
// element and for elements whose parent is a container. Every other
// element whose parent is a container is a block: once it is complete,
// block is called with it, attached to its ancestors (the containers keep
// no other children, so a block sees its parents but not its siblings).
// Then, when w is not nil, what the container now holds (the block, or
// what block replaced it with) is written to w and dropped. Text, comments
// and processing instructions between blocks are written as they come.
// What is written is what WriteTree writes for the tree Parse builds, each
// block as block left it.
func StreamBlocks(r io.Reader, w io.Writer, container func(*Node) bool, block func(*Node) error) error {
	s := &streamer{isContainer: container, block: block}
	if w != nil {
		s.w = bufio.NewWriterSize(w, 64<<10)
	}
	if _, err := parseTree(r, s); err != nil {
		return err
	}
	if s.w != nil {
		return s.w.Flush()
	}
	return nil
}

// streamer is StreamBlocks' state inside parseTree.
type streamer struct {
	w           *bufio.Writer // nil: nothing is written
	isContainer func(*Node) bool
	block       func(*Node) error
	open        []*Node // the open containers, the document node first
	begun       []bool  // per open container: its start tag is written
	rootSeen    bool
	held        int // nodes of the block being read
}

// ErrBlockTooLarge is StreamBlocks refusing a block of more than
// MaxBlockNodes elements and text pieces: memory is bounded by the largest
// block, so one block (a paragraph of a whole book, a text box holding
// everything) must be bounded too.
var ErrBlockTooLarge = errors.New("a single paragraph, table row or cell holds too much to lay out")

// MaxBlockNodes bounds a block's nodes: about 100 MB of tree, a paragraph
// of some 80,000 words written one run per word. A variable for the tests.
var MaxBlockNodes = 1 << 19

// hold counts one more node of the block being read.
func (s *streamer) hold() error {
	s.held++
	if s.held > MaxBlockNodes {
		return fmt.Errorf("%w (more than %d XML elements and text pieces in one block)", ErrBlockTooLarge, MaxBlockNodes)
	}
	return nil
}

// holds: n is the innermost open container.
func (s *streamer) holds(n *Node) bool { return len(s.open) > 0 && s.open[len(s.open)-1] == n }

func (s *streamer) init(doc *Node) {
	s.open, s.begun = append(s.open[:0], doc), append(s.begun[:0], true) // the document node has no tag
}

// container: n, a child of a container, holds blocks itself; it is then
// the innermost open container.
func (s *streamer) container(n *Node) bool {
	if !s.isContainer(n) {
		return false
	}
	s.open, s.begun = append(s.open, n), append(s.begun, false)
	return true
}

// startIn writes the start tag of the innermost container c before its
// first child.
func (s *streamer) startIn(c *Node) {
	i := len(s.open) - 1
	if s.begun[i] {
		return
	}
	s.begun[i] = true
	if s.w != nil {
		c.writeStart(s.w)
		s.w.WriteByte('>')
	}
}

// pass writes a non-element child of a container.
func (s *streamer) pass(c, n *Node) {
	s.startIn(c)
	if s.w != nil {
		n.write(s.w)
	}
}

// complete hands over the block just completed in container c, writes
// and drops it.
func (s *streamer) complete(c *Node) error {
	s.held = 0
	if err := s.block(c.Children[len(c.Children)-1]); err != nil {
		return err
	}
	for i, n := range c.Children {
		if s.w != nil {
			n.write(s.w)
		}
		n.Parent = nil
		c.Children[i] = nil
	}
	c.Children = c.Children[:0]
	if c.Parent == nil && c.Kind == RawNode {
		s.rootSeen = true
	}
	return nil
}

// close ends the innermost container n.
func (s *streamer) close(n *Node) {
	i := len(s.open) - 1
	if s.w != nil {
		if s.begun[i] {
			s.w.WriteString("</")
			writeName(s.w, n.Prefix, n.Local)
			s.w.WriteByte('>')
		} else {
			n.writeStart(s.w)
			s.w.WriteString("/>")
		}
	}
	s.open, s.begun = s.open[:i], s.begun[:i]
	p := n.Parent
	p.Children[len(p.Children)-1] = nil
	p.Children = p.Children[:len(p.Children)-1]
	if p.Parent == nil {
		s.rootSeen = true
	}
}

package ooxml

import (
	"archive/zip"
	"fmt"
	"io"
)

// Edit says how a part is read or written block by block; the zero Edit
// copies it raw (Rewrite) or skips it (Read).
type Edit struct {
	// Story streams a story part block by block.
	Story *StoryStream
	// Container and Block stream any other part block by block
	// (StreamBlocks).
	Container func(*Node) bool
	Block     func(*Node) error
	// Tree is the part's new content, written whole (a part parsed and
	// changed whole: styles, settings, a chart).
	Tree *Node
}

func (e Edit) zero() bool {
	return e.Story == nil && e.Block == nil && e.Tree == nil
}

// Rewrite writes the package to out, its entries in their order: each as
// edit says, those it leaves alone copied raw (still compressed, byte for
// byte).
func (p *Package) Rewrite(out io.Writer, edit func(f *zip.File) Edit) error {
	return p.WriteEach(out, func(name string) func(io.Writer) error {
		f := p.File(name)
		e := edit(f)
		if e.zero() {
			return nil
		}
		return func(w io.Writer) error { return p.Stream(f, w, e) }
	})
}

// Stream reads entry f block by block as e says, writing it to w as the
// blocks were left when w is not nil.
func (p *Package) Stream(f *zip.File, w io.Writer, e Edit) error {
	if e.Tree != nil {
		if w == nil {
			return nil
		}
		return WriteTree(w, e.Tree)
	}
	rc, err := p.Open(f)
	if err != nil {
		return err
	}
	defer rc.Close()
	if e.Story != nil {
		err = StreamStory(rc, w, e.Story)
	} else {
		err = StreamBlocks(rc, w, e.Container, e.Block)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	return nil
}

// Tree parses entry name whole; a missing entry is (nil, nil).
func (p *Package) Tree(name string) (*Node, error) {
	data, err := p.ReadPart(name)
	if err != nil || data == nil {
		return nil, err
	}
	n, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%w: parsing %s: %v", ErrInvalid, name, err)
	}
	return n, nil
}

package rtl

import (
	"errors"
	"fmt"
	"io"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// pkg is an opened .docx with the parts the layout has parsed.
type pkg struct {
	*ooxml.Package
	parsed  map[string]*node
	changed map[string]bool
	mainDoc string
	stories []string
	story   map[string]bool
	// layStory, when set, lays out each story part as the package is
	// written, block by block (eachBlock).
	layStory func(storyBlock)
	// tables are the facts of each story part's streamed tables, by their
	// order (ooxml.Table.Index), gathered by the first pass (direction).
	tables  map[string][]tableFacts
	onParse func(name string, storiesHeld int)
}

func openPkg(src ports.Blob) (*pkg, error) {
	if _, err := src.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	op, err := ooxml.Open(src, src.Size())
	if err != nil {
		return nil, fmt.Errorf("rtl: %w", err)
	}
	return wrapPkg(op), nil
}

func wrapPkg(op *ooxml.Package) *pkg {
	pk := &pkg{Package: op, parsed: map[string]*node{}, changed: map[string]bool{}, tables: map[string][]tableFacts{}, mainDoc: op.Main(), stories: op.Stories(), story: map[string]bool{}}
	for _, s := range pk.stories {
		pk.story[s] = true
	}
	return pk
}

// part parses an entry once; a missing entry is (nil, nil). The layout
// reads story parts block by block (eachBlock); a story parsed whole here
// (the whole-tree order of convert) drops the tree of any other story not
// changed, so one is held at a time.
func (pk *pkg) part(name string) (*node, error) {
	if n, ok := pk.parsed[name]; ok {
		return n, nil
	}
	if pk.File(name) == nil {
		return nil, nil
	}
	held := 0
	if pk.story[name] {
		for other := range pk.parsed {
			if !pk.story[other] {
				continue
			}
			if pk.changed[other] {
				held++
			} else {
				delete(pk.parsed, other)
			}
		}
	}
	data, err := pk.ReadPart(name)
	if err != nil {
		return nil, fmt.Errorf("rtl: reading %s: %w", name, err)
	}
	if pk.onParse != nil {
		pk.onParse(name, held)
	}
	n, err := ooxml.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("rtl: parsing %s: %w", name, err)
	}
	pk.parsed[name] = n
	return n, nil
}

// storyBlock is a block of a story part with what the layout knows of
// the tables holding it.
type storyBlock struct {
	part string // the story part's name
	n    *node
	// c is n's container, which holds n alone: walking c (Walk visits
	// descendants) walks n as the whole part's root element walks it.
	c *node
	// tables are the streamed tables holding n, outermost first.
	tables []*ooxml.Table
	// props is the table whose properties are to be laid out with n: n is
	// its tblPr, or, where it has none, its first block, before which one
	// is inserted (tableFacts.hasPr; whitespace before that block, already
	// written, then precedes the new tblPr instead of following it);
	// facts are its facts.
	props *ooxml.Table
	facts tableFacts
}

// propsTracker follows, along one story part's blocks, which streamed
// tables had their properties handed over.
type propsTracker struct {
	done map[*ooxml.Table]bool
}

// block describes block b, whose tables' facts are facts (by index).
func (pt *propsTracker) block(part string, b *ooxml.Block, facts []tableFacts) storyBlock {
	sb := storyBlock{part: part, n: b.N, c: b.C, tables: b.Tables}
	if len(b.Tables) == 0 {
		return sb
	}
	top := b.Tables[len(b.Tables)-1]
	if b.N.Parent != top.N || pt.done[top] {
		return sb
	}
	if top.Index < len(facts) {
		sb.facts = facts[top.Index]
	}
	sb.facts.cell = top.Cell
	if b.N.IsW("tblPr") || !sb.facts.hasPr {
		if pt.done == nil {
			pt.done = map[*ooxml.Table]bool{}
		}
		sb.props, pt.done[top] = top, true
	}
	return sb
}

// eachBlock streams a story part block by block (ooxml.StreamStory),
// calling fn with each block, which holds its subtree and its ancestors
// (the containers) but no siblings: fn walks its container as it would
// walk the whole part's root element (Walk visits descendants). With w,
// the part is written as fn left it. The peak is the largest block's
// tree, not the part's: a table streamed row by row holds one block of a
// cell at a time (issue 15 item 3).
func (pk *pkg) eachBlock(name string, w io.Writer, fn func(storyBlock)) error {
	f := pk.File(name)
	if f == nil {
		return nil
	}
	if pk.onParse != nil {
		held := 0
		for other := range pk.parsed {
			if pk.story[other] {
				held++
			}
		}
		pk.onParse(name, held)
	}
	var pt propsTracker
	facts := pk.tables[name]
	s := &ooxml.StoryStream{Block: func(b *ooxml.Block) error { fn(pt.block(name, b, facts)); return nil }}
	return badBlock(name, pk.Stream(f, w, ooxml.Edit{Story: s}))
}

// badBlock makes a block too large to hold the document's fault, not a
// passing one: the job fails with it.
func badBlock(name string, err error) error {
	if errors.Is(err, ooxml.ErrBlockTooLarge) {
		return fmt.Errorf("right-to-left layout of %s: %w; split it into smaller paragraphs or tables (%w)", name, err, ports.ErrBadDocument)
	}
	if err != nil {
		return fmt.Errorf("rtl: %w", err)
	}
	return nil
}

// write copies untouched entries raw and re-serialises changed parts
// straight into the package.
func (pk *pkg) write(out io.Writer) error {
	return pk.WriteEach(out, func(name string) func(io.Writer) error {
		if pk.layStory != nil && pk.story[name] {
			return func(w io.Writer) error { return pk.eachBlock(name, w, pk.layStory) }
		}
		if !pk.changed[name] {
			return nil
		}
		return func(w io.Writer) error { return ooxml.WriteTree(w, pk.parsed[name]) }
	})
}

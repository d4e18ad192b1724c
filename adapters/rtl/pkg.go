package rtl

import (
	"encoding/xml"
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
	// order (streamedTable.index), gathered by the first pass (direction).
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

// rtlScriptLang finds the language of RTL text in an LTR document:
// "he" for Hebrew letters, "ar" for other RTL scripts, "" for none.
func (pk *pkg) rtlScriptLang() (string, error) {
	lang := ""
	for _, name := range pk.stories {
		err := pk.eachBlock(name, nil, func(b storyBlock) {
			b.c.Walk(func(n *node) bool {
				if n.IsW("t") {
					for _, r := range n.TextOf() {
						if inRTLBlock(r) {
							if r >= 0x0590 && r <= 0x05FF || r >= 0xFB1D && r <= 0xFB4F {
								lang = "he"
							} else if lang == "" {
								lang = "ar"
							}
						}
					}
				}
				return true
			})
		})
		if err != nil {
			return "", err
		}
	}
	return lang, nil
}

// eachBlock streams a story part block by block (see storyContainer),
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
	rc, err := pk.Open(f)
	if err != nil {
		return fmt.Errorf("rtl: reading %s: %w", name, err)
	}
	defer rc.Close()
	var st streamedTables
	facts := pk.tables[name]
	err = ooxml.StreamBlocks(rc, w, st.container, func(b *node) error { fn(st.block(name, b, facts)); return nil })
	if errors.Is(err, ooxml.ErrBlockTooLarge) {
		// The document's fault, not a passing one: the job fails with this.
		return fmt.Errorf("right-to-left layout of %s: %w; split it into smaller paragraphs or tables (%w)", name, err, ports.ErrBadDocument)
	}
	if err != nil {
		return fmt.Errorf("rtl: parsing %s: %w", name, err)
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

var xmlSpacePreserve = xml.Attr{Name: xml.Name{Space: "xml", Local: "space"}, Value: "preserve"}

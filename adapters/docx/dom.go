package docx

import (
	"io"

	"github.com/dragoman-translate/dragoman/adapters/docx/xmlscan"
)

// node is one element (or text, comment, …) of a paragraph subtree. Only
// paragraphs are held as trees; everything between them streams through.
type node struct {
	kind  xmlscan.Kind
	name  string // qualified name, elements only
	start []byte // raw start tag, or the raw token for non-elements
	end   []byte // raw end tag; nil for Empty and non-elements
	kids  []*node
	pid   int   // paragraph number within the part, for paragraph nodes
	alias *node // the same paragraph in mc:Choice, for one in mc:Fallback
}

func (n *node) isElem() bool { return n.kind == xmlscan.Start || n.kind == xmlscan.Empty }

// readTree reads the subtree whose start token was just returned by sc.
// The raw bytes are copied into one arena per tree.
func readTree(sc *xmlscan.Scanner, first xmlscan.Token) (*node, error) {
	arena := make([]byte, 0, 1024)
	cp := func(b []byte) []byte {
		if cap(arena)-len(arena) < len(b) {
			arena = make([]byte, 0, max(4096, 2*len(b)))
		}
		s := len(arena)
		arena = append(arena, b...)
		return arena[s:len(arena):len(arena)]
	}
	root := &node{kind: first.Kind, name: string(first.Name), start: cp(first.Raw)}
	if first.Kind == xmlscan.Empty {
		return root, nil
	}
	stack := []*node{root}
	for len(stack) > 0 {
		t, err := sc.Next()
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return nil, err
		}
		top := stack[len(stack)-1]
		switch t.Kind {
		case xmlscan.End:
			top.end = cp(t.Raw)
			stack = stack[:len(stack)-1]
		case xmlscan.Start:
			n := &node{kind: t.Kind, name: string(t.Name), start: cp(t.Raw)}
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		default:
			n := &node{kind: t.Kind, start: cp(t.Raw)}
			if t.Kind == xmlscan.Empty {
				n.name = string(t.Name)
			}
			top.kids = append(top.kids, n)
		}
	}
	return root, nil
}

// writeRaw appends the subtree exactly as it was read.
func writeRaw(dst []byte, n *node) []byte {
	if n == nil {
		return dst
	}
	dst = append(dst, n.start...)
	for _, k := range n.kids {
		dst = writeRaw(dst, k)
	}
	return append(dst, n.end...)
}

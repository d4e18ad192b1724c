package docx

import (
	"io"
	"sync"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
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

// treeReader reads paragraph subtrees, reusing its memory from one tree to
// the next: a tree is dead once the next one is read (everything kept from
// it is copied out as strings).
type treeReader struct {
	arena []byte
	slab  []node
}

func (r *treeReader) bytes(b []byte) []byte {
	if cap(r.arena)-len(r.arena) < len(b) {
		r.arena = make([]byte, 0, max(64<<10, 2*len(b)))
	}
	s := len(r.arena)
	r.arena = append(r.arena, b...)
	return r.arena[s:len(r.arena):len(r.arena)]
}

func (r *treeReader) node(kind xmlscan.Kind, name, raw []byte) *node {
	if len(r.slab) == cap(r.slab) {
		r.slab = make([]node, 0, 1024)
	}
	r.slab = append(r.slab, node{kind: kind, name: intern(name), start: r.bytes(raw)})
	return &r.slab[len(r.slab)-1]
}

// read reads the subtree whose start token was just returned by sc.
func (r *treeReader) read(sc *xmlscan.Scanner, first xmlscan.Token) (*node, error) {
	r.arena, r.slab = r.arena[:0], r.slab[:0]
	root := r.node(first.Kind, first.Name, first.Raw)
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
			top.end = r.bytes(t.Raw)
			stack = stack[:len(stack)-1]
		case xmlscan.Start:
			n := r.node(t.Kind, t.Name, t.Raw)
			top.kids = append(top.kids, n)
			stack = append(stack, n)
		default:
			top.kids = append(top.kids, r.node(t.Kind, t.Name, t.Raw))
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

// names holds element names already seen, so trees share their strings.
var names sync.Map

func intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if v, ok := names.Load(string(b)); ok {
		return v.(string)
	}
	s := string(b)
	names.Store(s, s)
	return s
}

package ooxml

import "encoding/xml"

// Node is one token of an XML part kept as a tree. It is built from
// RawToken so prefixes, namespace declarations and mc:Ignorable survive
// byte for byte in meaning; only changed elements differ on output.
type Node struct {
	Kind     NodeKind
	Prefix   string // element prefix as written
	Local    string
	NS       string // namespace URI the prefix resolves to
	Attrs    []xml.Attr
	Children []*Node
	Parent   *Node
	Text     string // chardata (unescaped) or raw markup for other kinds
}

// NodeKind tells elements, character data and verbatim markup apart.
type NodeKind uint8

const (
	ElemNode NodeKind = iota
	TextNode
	RawNode // comment, processing instruction, directive: written verbatim
)

// The WordprocessingML namespaces, transitional and strict.
const (
	NSW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	NSWStrict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
)

// RootElem is the document element of a parsed part.
func (n *Node) RootElem() *Node {
	for _, c := range n.Children {
		if c.Kind == ElemNode {
			return c
		}
	}
	return nil
}

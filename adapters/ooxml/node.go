package ooxml

import (
	"encoding/xml"
	"strings"
)

// IsW reports whether n is the WordprocessingML element local.
func (n *Node) IsW(local string) bool {
	return n != nil && n.Kind == ElemNode && n.Local == local && (n.NS == NSW || n.NS == NSWStrict)
}

// Is reports whether n is element local in one of the namespaces.
func (n *Node) Is(local string, ns ...string) bool {
	if n == nil || n.Kind != ElemNode || n.Local != local {
		return false
	}
	for _, u := range ns {
		if n.NS == u {
			return true
		}
	}
	return false
}

// Child is the first WordprocessingML child named local.
func (n *Node) Child(local string) *Node {
	if n == nil {
		return nil
	}
	for _, c := range n.Children {
		if c.IsW(local) {
			return c
		}
	}
	return nil
}

// ChildrenW lists the WordprocessingML children named local; none for a
// nil node, as Child, so chains over optional elements need no checks.
func (n *Node) ChildrenW(local string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, c := range n.Children {
		if c.IsW(local) {
			out = append(out, c)
		}
	}
	return out
}

// Attr is an attribute's value by local name (any prefix but xmlns).
func (n *Node) Attr(local string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.Attrs {
		if a.Name.Local == local && a.Name.Space != "xmlns" {
			return a.Value, true
		}
	}
	return "", false
}

func (n *Node) AttrOr(local, def string) string {
	if v, ok := n.Attr(local); ok {
		return v
	}
	return def
}

// SetAttr sets an attribute, keeping its prefix if present; new ones get
// the element's prefix when the element is WordprocessingML.
func (n *Node) SetAttr(local, value string) {
	for i, a := range n.Attrs {
		if a.Name.Local == local && a.Name.Space != "xmlns" {
			n.Attrs[i].Value = value
			return
		}
	}
	prefix := ""
	if n.NS == NSW || n.NS == NSWStrict {
		prefix = n.Prefix
	}
	n.Attrs = append(n.Attrs, xml.Attr{Name: xml.Name{Space: prefix, Local: local}, Value: value})
}

func (n *Node) DelAttr(local string) {
	out := n.Attrs[:0]
	for _, a := range n.Attrs {
		if !(a.Name.Local == local && a.Name.Space != "xmlns") {
			out = append(out, a)
		}
	}
	n.Attrs = out
}

// On is the value of a boolean property element (absent val means true).
func On(n *Node) bool {
	if n == nil {
		return false
	}
	v, ok := n.Attr("val")
	if !ok {
		return true
	}
	switch strings.ToLower(v) {
	case "0", "false", "off":
		return false
	}
	return true
}

// NewW makes a WordprocessingML element with the prefix of like.
func NewW(like *Node, local string) *Node {
	return &Node{Kind: ElemNode, Prefix: like.Prefix, Local: local, NS: like.NS}
}

func (n *Node) Remove(c *Node) {
	for i, x := range n.Children {
		if x == c {
			n.Children = append(n.Children[:i], n.Children[i+1:]...)
			c.Parent = nil
			return
		}
	}
}

func (n *Node) RemoveW(local string) bool {
	removed := false
	for _, c := range n.ChildrenW(local) {
		n.Remove(c)
		removed = true
	}
	return removed
}

func (n *Node) InsertAt(i int, c *Node) {
	c.Parent = n
	n.Children = append(n.Children, nil)
	copy(n.Children[i+1:], n.Children[i:])
	n.Children[i] = c
}

func (n *Node) IndexOf(c *Node) int {
	for i, x := range n.Children {
		if x == c {
			return i
		}
	}
	return -1
}

// Clone deep-copies a subtree.
func (n *Node) Clone() *Node {
	c := *n
	c.Attrs = append([]xml.Attr(nil), n.Attrs...)
	c.Children = make([]*Node, len(n.Children))
	for i, ch := range n.Children {
		cc := ch.Clone()
		cc.Parent = &c
		c.Children[i] = cc
	}
	return &c
}

// Walk visits elements depth first; returning false skips a subtree.
func (n *Node) Walk(fn func(*Node) bool) {
	for _, c := range n.Children {
		if c.Kind != ElemNode {
			continue
		}
		if fn(c) {
			c.Walk(fn)
		}
	}
}

// FindAllW collects WordprocessingML descendants named local.
func (n *Node) FindAllW(local string) []*Node {
	var out []*Node
	n.Walk(func(c *Node) bool {
		if c.IsW(local) {
			out = append(out, c)
		}
		return true
	})
	return out
}

// TextOf concatenates the chardata directly inside n.
func (n *Node) TextOf() string {
	var s strings.Builder
	for _, c := range n.Children {
		if c.Kind == TextNode {
			s.WriteString(c.Text)
		}
	}
	return s.String()
}

func (n *Node) SetText(s string) {
	n.Children = []*Node{{Kind: TextNode, Text: s, Parent: n}}
}

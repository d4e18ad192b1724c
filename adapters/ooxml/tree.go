package ooxml

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
)

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

// Parse reads a whole part into a tree, with the same tokenizer the DOCX
// engine streams parts through (xmlscan). It is strict: a malformed part
// (unbalanced or mismatched tags, a DTD, an undefined entity, a malformed
// attribute) fails instead of being silently repaired.
func Parse(data []byte) (*Node, error) {
	return parseTree(bytes.NewReader(data), nil)
}

// parseTree reads a part into a tree; with s, blocks are handed over and
// dropped as they complete (see StreamBlocks).
func parseTree(r io.Reader, s *streamer) (*Node, error) {
	sc := xmlscan.New(r)
	root := &Node{Kind: RawNode} // document Node: children are the prolog and the root element
	cur := root
	var ns []nsDecl // namespace declarations in scope, innermost last
	var marks []int // len(ns) when each open element started
	lookup := func(prefix string) string {
		for i := len(ns) - 1; i >= 0; i-- {
			if ns[i].prefix == prefix {
				return ns[i].uri
			}
		}
		if prefix == "xml" {
			return "http://www.w3.org/XML/1998/namespace"
		}
		return ""
	}
	// Names are interned, up to maxInterned of them: a part naming
	// something new in every block would otherwise keep every name, and
	// StreamBlocks would hold more than the largest block.
	names := map[string]string{}
	intern := func(b []byte) string {
		if s, ok := names[string(b)]; ok {
			return s
		}
		s := string(b)
		if len(names) < maxInterned {
			names[s] = s
		}
		return s
	}
	if s != nil {
		s.init(root)
	}
	for {
		t, err := sc.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t.Kind {
		case xmlscan.Start, xmlscan.Empty:
			if t.Kind == xmlscan.Start && sc.Depth() > maxDepth {
				return nil, fmt.Errorf("xml: elements nested more than %d deep", maxDepth)
			}
			attrs, err := parseAttrs(t.Raw, len(t.Name), intern)
			if err != nil {
				return nil, err
			}
			marks = append(marks, len(ns))
			for _, a := range attrs {
				if a.Name.Space == "xmlns" {
					ns = append(ns, nsDecl{a.Name.Local, a.Value})
				} else if a.Name.Space == "" && a.Name.Local == "xmlns" {
					ns = append(ns, nsDecl{"", a.Value})
				}
			}
			prefix := intern(xmlscan.Prefix(t.Name))
			n := &Node{Kind: ElemNode, Prefix: prefix, Local: intern(xmlscan.Local(t.Name)), NS: lookup(prefix), Attrs: attrs, Parent: cur}
			if s != nil {
				if s.holds(cur) {
					s.startIn(cur)
				} else if err := s.hold(); err != nil {
					return nil, err
				}
			}
			cur.Children = append(cur.Children, n)
			if t.Kind == xmlscan.Start {
				if s != nil && s.holds(cur) {
					s.container(n)
				}
				cur = n
				continue
			}
			ns, marks = ns[:marks[len(marks)-1]], marks[:len(marks)-1]
			if s != nil && s.holds(cur) {
				if err := s.complete(cur); err != nil {
					return nil, err
				}
			}
		case xmlscan.End: // the scanner checked it closes cur
			ns, marks = ns[:marks[len(marks)-1]], marks[:len(marks)-1]
			n := cur
			cur = cur.Parent
			if s != nil {
				switch {
				case s.holds(n):
					s.close(n)
				case s.holds(cur):
					if err := s.complete(cur); err != nil {
						return nil, err
					}
				}
			}
		case xmlscan.Text, xmlscan.CData:
			raw, text := t.Raw, ""
			if t.Kind == xmlscan.CData {
				text = string(raw[len("<![CDATA[") : len(raw)-len("]]>")])
			} else if text, err = xmlscan.Unescape(raw); err != nil {
				return nil, err
			}
			n := &Node{Kind: TextNode, Text: newlines(text), Parent: cur}
			if s != nil && s.holds(cur) {
				s.pass(cur, n)
				continue
			} else if s != nil {
				if err := s.hold(); err != nil {
					return nil, err
				}
			}
			cur.Children = append(cur.Children, n)
		case xmlscan.Comment, xmlscan.ProcInst:
			n := &Node{Kind: RawNode, Text: string(t.Raw), Parent: cur}
			if s != nil && s.holds(cur) {
				s.pass(cur, n)
				continue
			}
			cur.Children = append(cur.Children, n)
		}
	}
	if cur != root || root.RootElem() == nil && (s == nil || !s.rootSeen) {
		return nil, fmt.Errorf("truncated XML part")
	}
	return root, nil
}

type nsDecl struct{ prefix, uri string }

// maxInterned bounds the names parseTree interns: far more than a story
// part's vocabulary.
const maxInterned = 4096

// maxDepth bounds the nesting of a part's elements. A tree is written and
// walked recursively: a part of a few million nested elements (within the
// XML part size limit) would take gigabytes of stack and end the process.
// Word's deepest content (tables nested in tables, drawings in text boxes)
// is a few hundred deep.
const maxDepth = 4096

// newlines normalises line ends as an XML processor does (CR LF and a
// lone CR read as LF).
func newlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// parseAttrs reads the attributes of a raw start or empty tag whose name
// is nameLen bytes long, refusing malformed ones.
func parseAttrs(raw []byte, nameLen int, intern func([]byte) string) ([]xml.Attr, error) {
	var out []xml.Attr
	i, end := 1+nameLen, len(raw)-1 // raw[end] is '>'
	if raw[end-1] == '/' {
		end--
	}
	for {
		sp := i
		for i < end && isSpace(raw[i]) {
			i++
		}
		if i == end {
			return out, nil
		}
		if i == sp {
			return nil, fmt.Errorf("xml: malformed attributes in %.40q", raw)
		}
		j := i
		for j < end && raw[j] != '=' && !isSpace(raw[j]) {
			j++
		}
		name := raw[i:j]
		for j < end && isSpace(raw[j]) {
			j++
		}
		if j == i || j >= end || raw[j] != '=' {
			return nil, fmt.Errorf("xml: malformed attribute in %.40q", raw)
		}
		j++
		for j < end && isSpace(raw[j]) {
			j++
		}
		if j >= end || raw[j] != '"' && raw[j] != '\'' {
			return nil, fmt.Errorf("xml: unquoted attribute value in %.40q", raw)
		}
		k := bytes.IndexByte(raw[j+1:end], raw[j])
		if k < 0 {
			return nil, fmt.Errorf("xml: unterminated attribute value in %.40q", raw)
		}
		val := raw[j+1 : j+1+k]
		if bytes.IndexByte(val, '<') >= 0 {
			return nil, fmt.Errorf("xml: unescaped < in attribute value in %.40q", raw)
		}
		v, err := xmlscan.Unescape(val)
		if err != nil {
			return nil, err
		}
		out = append(out, xml.Attr{Name: xml.Name{Space: intern(xmlscan.Prefix(name)), Local: intern(xmlscan.Local(name))}, Value: newlines(v)})
		i = j + 1 + k + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// RootElem is the document element of a parsed part.
func (n *Node) RootElem() *Node {
	for _, c := range n.Children {
		if c.Kind == ElemNode {
			return c
		}
	}
	return nil
}

// WriteTree serialises a tree. Text is filtered of characters XML 1.0
// forbids, so a translation carrying control characters cannot break the part.
func WriteTree(w io.Writer, doc *Node) error {
	b := bufio.NewWriterSize(w, 64<<10)
	for _, c := range doc.Children {
		c.write(b)
	}
	return b.Flush()
}

func (n *Node) write(b *bufio.Writer) {
	switch n.Kind {
	case TextNode:
		escape(b, n.Text, false)
	case RawNode:
		b.WriteString(n.Text)
	case ElemNode:
		n.writeStart(b)
		if len(n.Children) == 0 {
			b.WriteString("/>")
			return
		}
		b.WriteByte('>')
		for _, c := range n.Children {
			c.write(b)
		}
		b.WriteString("</")
		writeName(b, n.Prefix, n.Local)
		b.WriteByte('>')
	}
}

// writeStart writes an element's start tag up to, not including, its end
// ('>' or '/>').
func (n *Node) writeStart(b *bufio.Writer) {
	b.WriteByte('<')
	writeName(b, n.Prefix, n.Local)
	for _, a := range n.Attrs {
		b.WriteByte(' ')
		writeName(b, a.Name.Space, a.Name.Local)
		b.WriteString(`="`)
		escape(b, a.Value, true)
		b.WriteByte('"')
	}
}

func writeName(b *bufio.Writer, prefix, local string) {
	if prefix != "" {
		b.WriteString(prefix)
		b.WriteByte(':')
	}
	b.WriteString(local)
}

func escape(b *bufio.Writer, s string, attr bool) {
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case r == '\t' && attr:
			b.WriteString("&#x9;")
		case r == '\n' && attr:
			b.WriteString("&#xA;")
		case r == '\r':
			b.WriteString("&#xD;")
		case !xmlChar(r):
			// dropped: not representable in XML 1.0
		default:
			b.WriteRune(r)
		}
	}
}

func xmlChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		(r >= 0x20 && r <= 0xD7FF && r != utf8.RuneError) ||
		(r >= 0xE000 && r <= 0xFFFD) || (r >= 0x10000 && r <= 0x10FFFF)
}

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

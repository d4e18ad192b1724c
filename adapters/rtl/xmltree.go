package rtl

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// node is one token of an XML part kept as a tree. It is built from
// RawToken so prefixes, namespace declarations and mc:Ignorable survive
// byte for byte in meaning; only changed elements differ on output.
type node struct {
	kind     nodeKind
	prefix   string // element prefix as written
	local    string
	ns       string // namespace URI the prefix resolves to
	attrs    []xml.Attr
	children []*node
	parent   *node
	text     string // chardata (unescaped) or raw markup for other kinds
}

type nodeKind uint8

const (
	elemNode nodeKind = iota
	textNode
	rawNode // comment, processing instruction, directive: written verbatim
)

// Namespaces the adapter reads or writes.
const (
	nsW           = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWStrict     = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsWP          = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsWPStrict    = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
	nsMC          = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsV           = "urn:schemas-microsoft-com:vml"
	nsO           = "urn:schemas-microsoft-com:office:office"
	nsA           = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsAStrict     = "http://purl.oclc.org/ooxml/drawingml/main"
	nsPic         = "http://schemas.openxmlformats.org/drawingml/2006/picture"
	nsPicStrict   = "http://purl.oclc.org/ooxml/drawingml/picture"
	nsChart       = "http://schemas.openxmlformats.org/drawingml/2006/chart"
	nsChartStrict = "http://purl.oclc.org/ooxml/drawingml/chart"
	nsDgm         = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
	nsDgmStrict   = "http://purl.oclc.org/ooxml/drawingml/diagram"
	nsMath        = "http://schemas.openxmlformats.org/officeDocument/2006/math"
	nsMathStrict  = "http://purl.oclc.org/ooxml/officeDocument/math"
	nsW14         = "http://schemas.microsoft.com/office/word/2010/wordml"
)

// parseXML reads a whole part into a tree. The decoder is strict, so a
// malformed part fails instead of being silently repaired.
func parseXML(data []byte) (*node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	root := &node{kind: rawNode} // document node: children are the prolog and the root element
	cur := root
	scopes := []map[string]string{{"xml": "http://www.w3.org/XML/1998/namespace"}}
	lookup := func(prefix string) string {
		for i := len(scopes) - 1; i >= 0; i-- {
			if u, ok := scopes[i][prefix]; ok {
				return u
			}
		}
		return ""
	}
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			scope := map[string]string{}
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" {
					scope[a.Name.Local] = a.Value
				} else if a.Name.Space == "" && a.Name.Local == "xmlns" {
					scope[""] = a.Value
				}
			}
			scopes = append(scopes, scope)
			n := &node{kind: elemNode, prefix: t.Name.Space, local: t.Name.Local, ns: lookup(t.Name.Space), attrs: append([]xml.Attr(nil), t.Attr...), parent: cur}
			cur.children = append(cur.children, n)
			cur = n
		case xml.EndElement:
			if cur.parent == nil || cur.local != t.Name.Local {
				return nil, fmt.Errorf("unbalanced end element %s", t.Name.Local)
			}
			scopes = scopes[:len(scopes)-1]
			cur = cur.parent
		case xml.CharData:
			cur.children = append(cur.children, &node{kind: textNode, text: string(t), parent: cur})
		case xml.Comment:
			cur.children = append(cur.children, &node{kind: rawNode, text: "<!--" + string(t) + "-->", parent: cur})
		case xml.ProcInst:
			cur.children = append(cur.children, &node{kind: rawNode, text: "<?" + t.Target + " " + string(t.Inst) + "?>", parent: cur})
		case xml.Directive:
			return nil, fmt.Errorf("DTD or directive not allowed in a docx part")
		}
	}
	if cur != root || root.rootElem() == nil {
		return nil, fmt.Errorf("truncated XML part")
	}
	return root, nil
}

// rootElem is the document element of a parsed part.
func (n *node) rootElem() *node {
	for _, c := range n.children {
		if c.kind == elemNode {
			return c
		}
	}
	return nil
}

// writeXML serialises a tree. Text is filtered of characters XML 1.0
// forbids, so a translation carrying control characters cannot break the part.
func writeXML(w io.Writer, doc *node) error {
	var b bytes.Buffer
	for _, c := range doc.children {
		c.write(&b)
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case textNode:
		escape(b, n.text, false)
	case rawNode:
		b.WriteString(n.text)
	case elemNode:
		b.WriteByte('<')
		writeName(b, n.prefix, n.local)
		for _, a := range n.attrs {
			b.WriteByte(' ')
			writeName(b, a.Name.Space, a.Name.Local)
			b.WriteString(`="`)
			escape(b, a.Value, true)
			b.WriteByte('"')
		}
		if len(n.children) == 0 {
			b.WriteString("/>")
			return
		}
		b.WriteByte('>')
		for _, c := range n.children {
			c.write(b)
		}
		b.WriteString("</")
		writeName(b, n.prefix, n.local)
		b.WriteByte('>')
	}
}

func writeName(b *bytes.Buffer, prefix, local string) {
	if prefix != "" {
		b.WriteString(prefix)
		b.WriteByte(':')
	}
	b.WriteString(local)
}

func escape(b *bytes.Buffer, s string, attr bool) {
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

// isW reports whether n is the WordprocessingML element local.
func (n *node) isW(local string) bool {
	return n != nil && n.kind == elemNode && n.local == local && (n.ns == nsW || n.ns == nsWStrict)
}

// is reports whether n is element local in one of the namespaces.
func (n *node) is(local string, ns ...string) bool {
	if n == nil || n.kind != elemNode || n.local != local {
		return false
	}
	for _, u := range ns {
		if n.ns == u {
			return true
		}
	}
	return false
}

// child is the first WordprocessingML child named local.
func (n *node) child(local string) *node {
	if n == nil {
		return nil
	}
	for _, c := range n.children {
		if c.isW(local) {
			return c
		}
	}
	return nil
}

// childrenW lists the WordprocessingML children named local.
func (n *node) childrenW(local string) []*node {
	var out []*node
	for _, c := range n.children {
		if c.isW(local) {
			out = append(out, c)
		}
	}
	return out
}

// attr is an attribute's value by local name (any prefix but xmlns).
func (n *node) attr(local string) (string, bool) {
	if n == nil {
		return "", false
	}
	for _, a := range n.attrs {
		if a.Name.Local == local && a.Name.Space != "xmlns" {
			return a.Value, true
		}
	}
	return "", false
}

func (n *node) attrOr(local, def string) string {
	if v, ok := n.attr(local); ok {
		return v
	}
	return def
}

// setAttr sets an attribute, keeping its prefix if present; new ones get
// the element's prefix when the element is WordprocessingML.
func (n *node) setAttr(local, value string) {
	for i, a := range n.attrs {
		if a.Name.Local == local && a.Name.Space != "xmlns" {
			n.attrs[i].Value = value
			return
		}
	}
	prefix := ""
	if n.ns == nsW || n.ns == nsWStrict {
		prefix = n.prefix
	}
	n.attrs = append(n.attrs, xml.Attr{Name: xml.Name{Space: prefix, Local: local}, Value: value})
}

func (n *node) delAttr(local string) {
	out := n.attrs[:0]
	for _, a := range n.attrs {
		if !(a.Name.Local == local && a.Name.Space != "xmlns") {
			out = append(out, a)
		}
	}
	n.attrs = out
}

// on is the value of a boolean property element (absent val means true).
func on(n *node) bool {
	if n == nil {
		return false
	}
	v, ok := n.attr("val")
	if !ok {
		return true
	}
	switch strings.ToLower(v) {
	case "0", "false", "off":
		return false
	}
	return true
}

// newSibling makes a WordprocessingML element with the prefix of like.
func newW(like *node, local string) *node {
	return &node{kind: elemNode, prefix: like.prefix, local: local, ns: like.ns}
}

func (n *node) remove(c *node) {
	for i, x := range n.children {
		if x == c {
			n.children = append(n.children[:i], n.children[i+1:]...)
			c.parent = nil
			return
		}
	}
}

func (n *node) removeW(local string) bool {
	removed := false
	for _, c := range n.childrenW(local) {
		n.remove(c)
		removed = true
	}
	return removed
}

func (n *node) insertAt(i int, c *node) {
	c.parent = n
	n.children = append(n.children, nil)
	copy(n.children[i+1:], n.children[i:])
	n.children[i] = c
}

func (n *node) indexOf(c *node) int {
	for i, x := range n.children {
		if x == c {
			return i
		}
	}
	return -1
}

// clone deep-copies a subtree.
func (n *node) clone() *node {
	c := *n
	c.attrs = append([]xml.Attr(nil), n.attrs...)
	c.children = make([]*node, len(n.children))
	for i, ch := range n.children {
		cc := ch.clone()
		cc.parent = &c
		c.children[i] = cc
	}
	return &c
}

// walk visits elements depth first; returning false skips a subtree.
func (n *node) walk(fn func(*node) bool) {
	for _, c := range n.children {
		if c.kind != elemNode {
			continue
		}
		if fn(c) {
			c.walk(fn)
		}
	}
}

// findAllW collects WordprocessingML descendants named local.
func (n *node) findAllW(local string) []*node {
	var out []*node
	n.walk(func(c *node) bool {
		if c.isW(local) {
			out = append(out, c)
		}
		return true
	})
	return out
}

// textOf concatenates the chardata directly inside n.
func (n *node) textOf() string {
	var s strings.Builder
	for _, c := range n.children {
		if c.kind == textNode {
			s.WriteString(c.text)
		}
	}
	return s.String()
}

func (n *node) setText(s string) {
	n.children = []*node{{kind: textNode, text: s, parent: n}}
}

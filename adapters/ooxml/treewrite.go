package ooxml

import (
	"bufio"
	"io"
	"unicode/utf8"
)

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

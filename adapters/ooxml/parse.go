package ooxml

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml/xmlscan"
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
	// Short attribute values repeat (sizes, colours, fonts, styles): they
	// are interned too, in a map of their own, bounded the same way.
	values := map[string]string{}
	value := func(b []byte) string {
		if len(b) > 24 {
			return string(b)
		}
		if s, ok := values[string(b)]; ok {
			return s
		}
		s := string(b)
		if len(values) < maxInterned {
			values[s] = s
		}
		return s
	}
	var a arena
	var scratch []xml.Attr
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
			scratch, err = parseAttrs(t.Raw, len(t.Name), intern, value, scratch[:0])
			if err != nil {
				return nil, err
			}
			attrs := a.attrs(scratch)
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

// arena hands out a tree's attribute lists in chunks: one allocation for
// many small ones. Nothing is reused: a chunk lives as long as one of its
// lists does. (Nodes are not allocated so: a chunk kept alive by one node
// would keep, through the dead nodes' parents, every chunk before it.)
type arena struct {
	list []xml.Attr
}

// attrs is a copy of attrs, nil when empty; its capacity is its length, so
// an attribute added later reallocates it rather than overwrite a
// neighbour's.
func (a *arena) attrs(attrs []xml.Attr) []xml.Attr {
	n := len(attrs)
	if n == 0 {
		return nil
	}
	if cap(a.list)-len(a.list) < n {
		a.list = make([]xml.Attr, 0, max(256, n))
	}
	s := len(a.list)
	a.list = append(a.list, attrs...)
	return a.list[s : s+n : s+n]
}

// parseAttrs appends to out the attributes of a raw start or empty tag
// whose name is nameLen bytes long, refusing malformed ones.
func parseAttrs(raw []byte, nameLen int, intern, value func([]byte) string, out []xml.Attr) ([]xml.Attr, error) {
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
		var v string
		if bytes.IndexByte(val, '&') < 0 && bytes.IndexByte(val, '\r') < 0 {
			v = value(val)
		} else {
			u, err := xmlscan.Unescape(val)
			if err != nil {
				return nil, err
			}
			v = newlines(u)
		}
		out = append(out, xml.Attr{Name: xml.Name{Space: intern(xmlscan.Prefix(name)), Local: intern(xmlscan.Local(name))}, Value: v})
		i = j + 1 + k + 1
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

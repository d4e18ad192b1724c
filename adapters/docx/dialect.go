package docx

import (
	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// node is an element (or text, comment, …) of a part: the package model's
// tree, read and written block by block.
type node = ooxml.Node

// Namespaces the engine reads, transitional and strict.
const (
	nsW       = ooxml.NSW
	nsWStrict = ooxml.NSWStrict
	nsA       = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsAStrict = "http://purl.oclc.org/ooxml/drawingml/main"
	nsWP      = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsWPStr   = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
	nsMC      = "http://schemas.openxmlformats.org/markup-compatibility/2006"
	nsDC      = "http://purl.org/dc/elements/1.1/"
)

// dialect is one paragraph vocabulary: WordprocessingML (w:p/w:r/w:t) or
// DrawingML text (a:p/a:r/a:t, used by charts and SmartArt). Elements are
// told apart by namespace and local name, whatever prefix a part gives
// them.
type dialect struct {
	word bool
	ns   [2]string // the vocabulary's namespace, transitional and strict
}

var (
	wordML    = &dialect{word: true, ns: [2]string{nsW, nsWStrict}}
	drawingML = &dialect{ns: [2]string{nsA, nsAStrict}}
)

// is reports whether n is the vocabulary's element local.
func (d *dialect) is(n *node, local string) bool {
	return n != nil && n.Kind == ooxml.ElemNode && n.Local == local && (n.NS == d.ns[0] || n.NS == d.ns[1])
}

// in reports whether n is an element of the vocabulary.
func (d *dialect) in(n *node) bool {
	return n.Kind == ooxml.ElemNode && (n.NS == d.ns[0] || n.NS == d.ns[1])
}

// wrapper is the code type of an element inside a paragraph that wraps
// runs and becomes a paired code ("" if n is none).
func (d *dialect) wrapper(n *node) string {
	if !d.word || !d.in(n) {
		return ""
	}
	switch n.Local {
	case "hyperlink":
		return "link"
	case "ins", "moveTo":
		return "ins"
	case "smartTag", "customXml":
		return "tag"
	case "sdt":
		return "sdt"
	case "fldSimple":
		return "field"
	case "dir", "bdo":
		return "dir"
	}
	return ""
}

// dropped is noise taken out of paragraphs: spell-check marks and render
// caches.
func (d *dialect) dropped(n *node) bool {
	return d.word && (d.is(n, "proofErr") || d.is(n, "lastRenderedPageBreak"))
}

// isDocPr is a drawing's properties, which hold its alt text.
func isDocPr(n *node) bool { return n.Is("docPr", nsWP, nsWPStr) }

// codeType is the semantic hint of an isolated item, from its local name.
func codeType(local string) string {
	switch local {
	case "tab", "ptab":
		return "tab"
	case "br", "cr":
		return "br"
	case "footnoteReference":
		return "fn"
	case "endnoteReference":
		return "en"
	case "commentReference", "commentRangeStart", "commentRangeEnd":
		return "comment"
	case "drawing", "pict", "object", "AlternateContent":
		return "image"
	case "fldChar", "instrText", "fld":
		return "field"
	case "bookmarkStart", "bookmarkEnd":
		return "bookmark"
	case "sym":
		return "sym"
	}
	return local
}

package docx

import "strings"

// Namespaces whose prefix a part declares; Word always uses "w" and "a" in
// practice, but the prefix is read from the part so any prefix works.
const (
	nsW       = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
	nsWStrict = "http://purl.oclc.org/ooxml/wordprocessingml/main"
	nsA       = "http://schemas.openxmlformats.org/drawingml/2006/main"
	nsAStrict = "http://purl.oclc.org/ooxml/drawingml/main"
	nsWP      = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
	nsWPStr   = "http://purl.oclc.org/ooxml/drawingml/wordprocessingDrawing"
	nsMC      = "http://schemas.openxmlformats.org/markup-compatibility/2006"
)

// dialect names the elements of one paragraph vocabulary: WordprocessingML
// (w:p/w:r/w:t) or DrawingML text (a:p/a:r/a:t, used by charts and SmartArt).
type dialect struct {
	p, pPr, r, rPr, t string
	// elements inside a paragraph that wrap runs and become paired codes
	wrappers map[string]string // qualified name -> code type
	// noise dropped from paragraphs (spell-check marks, render caches)
	drop map[string]bool
	// run children that are not text but are kept as isolated codes
	sdt, sdtContent       string
	fldChar, instrText    string
	fldSimple             string
	vanish                string
	del, moveFrom         string
	word                  bool
	mcAlt, mcChoice, mcFb string
	docPr                 string
	ruby, rubyBase        string
}

func q(prefix, local string) string {
	if prefix == "" {
		return local
	}
	return prefix + ":" + local
}

func wordDialect(w, wp, mc string) *dialect {
	d := &dialect{
		p: q(w, "p"), pPr: q(w, "pPr"), r: q(w, "r"), rPr: q(w, "rPr"), t: q(w, "t"),
		wrappers: map[string]string{
			q(w, "hyperlink"): "link", q(w, "ins"): "ins", q(w, "moveTo"): "ins",
			q(w, "smartTag"): "tag", q(w, "customXml"): "tag", q(w, "sdt"): "sdt",
			q(w, "fldSimple"): "field", q(w, "dir"): "dir", q(w, "bdo"): "dir",
		},
		drop: map[string]bool{
			q(w, "proofErr"): true, q(w, "lastRenderedPageBreak"): true,
		},
		sdt: q(w, "sdt"), sdtContent: q(w, "sdtContent"),
		fldChar: q(w, "fldChar"), instrText: q(w, "instrText"), fldSimple: q(w, "fldSimple"),
		vanish: q(w, "vanish"), del: q(w, "del"), moveFrom: q(w, "moveFrom"),
		word:  true,
		mcAlt: q(mc, "AlternateContent"), mcChoice: q(mc, "Choice"), mcFb: q(mc, "Fallback"),
		docPr: q(wp, "docPr"),
		ruby:  q(w, "ruby"), rubyBase: q(w, "rubyBase"),
	}
	return d
}

func drawingDialect(a string) *dialect {
	return &dialect{
		p: q(a, "p"), pPr: q(a, "pPr"), r: q(a, "r"), rPr: q(a, "rPr"), t: q(a, "t"),
		wrappers: map[string]string{},
		drop:     map[string]bool{},
	}
}

// codeType is the semantic hint of an isolated item, from its local name.
func codeType(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
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
	return name
}

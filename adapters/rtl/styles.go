package rtl

import (
	"encoding/xml"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// styleSheet resolves a paragraph's inherited direction: paragraph style
// chain (w:basedOn), then the default paragraph style, then docDefaults.
type styleSheet struct {
	byID        map[string]*node
	defaultPara string
	defaults    *node // w:docDefaults
}

func newStyleSheet(root *node) *styleSheet {
	s := &styleSheet{byID: map[string]*node{}}
	if root == nil {
		return s
	}
	r := root.RootElem()
	s.defaults = r.Child("docDefaults")
	for _, st := range r.ChildrenW("style") {
		id, _ := st.Attr("styleId")
		s.byID[id] = st
		if st.AttrOr("type", "paragraph") == "paragraph" && ooxml.On(attrFlag(st, "default")) {
			s.defaultPara = id
		}
	}
	return s
}

// attrFlag wraps an on/off attribute as a flag node for ooxml.On().
func attrFlag(n *node, local string) *node {
	v, ok := n.Attr(local)
	if !ok {
		return nil
	}
	return &node{Attrs: []xml.Attr{{Name: xml.Name{Local: "val"}, Value: v}}}
}

// styleBidi is the bidi a style chain sets, if any.
func (s *styleSheet) styleBidi(id string) (val, found bool) {
	for depth := 0; depth < 32; depth++ {
		st := s.byID[id]
		if st == nil {
			return false, false
		}
		if b := st.Child("pPr").Child("bidi"); b != nil {
			return ooxml.On(b), true
		}
		based := st.Child("basedOn")
		if based == nil {
			return false, false
		}
		id, _ = based.Attr("val")
	}
	return false, false
}

func (s *styleSheet) defaultBidi() bool {
	return ooxml.On(s.defaults.Child("pPrDefault").Child("pPr").Child("bidi"))
}

// inheritedBidi is a paragraph's direction without its direct w:bidi.
func (s *styleSheet) inheritedBidi(p *node) bool {
	id := s.defaultPara
	if ps := p.Child("pPr").Child("pStyle"); ps != nil {
		if v, _ := ps.Attr("val"); s.byID[v] != nil {
			id = v
		}
	}
	if v, ok := s.styleBidi(id); ok {
		return v
	}
	if id != s.defaultPara {
		if v, ok := s.styleBidi(s.defaultPara); ok {
			return v
		}
	}
	return s.defaultBidi()
}

// effectiveBidi is a paragraph's resolved direction.
func (s *styleSheet) effectiveBidi(p *node) bool {
	if b := p.Child("pPr").Child("bidi"); b != nil {
		return ooxml.On(b)
	}
	return s.inheritedBidi(p)
}

// layoutStyles sets the document's base direction once, in docDefaults
// (through styles and defaults where possible: README "Right-to-left layout"), and
// removes style-level values that would contradict it. Run-level
// direction flags leave the styles: they are set per run, so Latin text
// never inherits w:rtl.
func (ps *pass) layoutStyles(root *node) {
	r := root.RootElem()
	dd := r.Child("docDefaults")
	if dd == nil {
		dd = ooxml.NewW(r, "docDefaults")
		r.InsertAt(firstElemIndex(r), dd)
	}
	pprd := ensure(dd, "pPrDefault", docDefaultsOrder)
	ppr := ensureFirst(pprd, "pPr")
	rprd := ensure(dd, "rPrDefault", docDefaultsOrder)
	rpr := ensureFirst(rprd, "rPr")
	if ps.m.targetRTL {
		setFlag(ppr, "bidi", true, pPrOrder)
	} else {
		ppr.RemoveW("bidi")
	}
	for _, st := range r.ChildrenW("style") {
		if p := st.Child("pPr"); p != nil {
			if b := p.Child("bidi"); b != nil && ooxml.On(b) != ps.m.targetRTL {
				p.RemoveW("bidi")
			}
			ps.physicalPPr(p)
			ps.mapKashida(p)
		}
	}
	// Every rPr of the sheet: direction flags off, complex-script twins,
	// fonts and language.
	r.Walk(func(n *node) bool {
		if n.IsW("rPrChange") || n.IsW("pPrChange") {
			return false
		}
		if n.IsW("rPr") {
			n.RemoveW("rtl")
			n.RemoveW("cs")
			ps.twins(n)
			ps.fonts(n)
			ps.lang(n, false)
		}
		return true
	})
	if ps.needsCSFont() {
		rf := ensure(rpr, "rFonts", rPrOrder)
		if cs, ok := rf.Attr("cs"); !ok || cs != ps.csFont {
			if _, theme := rf.Attr("cstheme"); theme || !ok {
				rf.DelAttr("cstheme")
				rf.SetAttr("cs", ps.csFont)
			}
		}
	}
	ps.lang(rpr, true)
}

func firstElemIndex(n *node) int {
	for i, c := range n.Children {
		if c.Kind == ooxml.ElemNode {
			return i
		}
	}
	return len(n.Children)
}

// paraProp is a paragraph property as it applies: set directly, by the
// paragraph's style chain (or the default paragraph style's), or in the
// document defaults; nil if none sets it.
func (s *styleSheet) paraProp(p *node, local string) *node {
	if c := p.Child("pPr").Child(local); c != nil {
		return c
	}
	id := s.defaultPara
	if ps := p.Child("pPr").Child("pStyle"); ps != nil {
		if v, _ := ps.Attr("val"); s.byID[v] != nil {
			id = v
		}
	}
	for depth := 0; depth < 32 && id != ""; depth++ {
		st := s.byID[id]
		if st == nil {
			break
		}
		if c := st.Child("pPr").Child(local); c != nil {
			return c
		}
		id = st.Child("basedOn").AttrOr("val", "")
	}
	return s.defaults.Child("pPrDefault").Child("pPr").Child(local)
}

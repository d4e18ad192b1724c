package rtl

import "encoding/xml"

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
	r := root.rootElem()
	s.defaults = r.child("docDefaults")
	for _, st := range r.childrenW("style") {
		id, _ := st.attr("styleId")
		s.byID[id] = st
		if st.attrOr("type", "paragraph") == "paragraph" && on(attrFlag(st, "default")) {
			s.defaultPara = id
		}
	}
	return s
}

// attrFlag wraps an on/off attribute as a flag node for on().
func attrFlag(n *node, local string) *node {
	v, ok := n.attr(local)
	if !ok {
		return nil
	}
	return &node{attrs: []xml.Attr{{Name: xml.Name{Local: "val"}, Value: v}}}
}

// styleBidi is the bidi a style chain sets, if any.
func (s *styleSheet) styleBidi(id string) (val, found bool) {
	for depth := 0; depth < 32; depth++ {
		st := s.byID[id]
		if st == nil {
			return false, false
		}
		if b := st.child("pPr").child("bidi"); b != nil {
			return on(b), true
		}
		based := st.child("basedOn")
		if based == nil {
			return false, false
		}
		id, _ = based.attr("val")
	}
	return false, false
}

func (s *styleSheet) defaultBidi() bool {
	return on(s.defaults.child("pPrDefault").child("pPr").child("bidi"))
}

// inheritedBidi is a paragraph's direction without its direct w:bidi.
func (s *styleSheet) inheritedBidi(p *node) bool {
	id := s.defaultPara
	if ps := p.child("pPr").child("pStyle"); ps != nil {
		if v, _ := ps.attr("val"); s.byID[v] != nil {
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
	if b := p.child("pPr").child("bidi"); b != nil {
		return on(b)
	}
	return s.inheritedBidi(p)
}

// layoutStyles sets the document's base direction once, in docDefaults
// (the brief's row 1: through styles and defaults where possible), and
// removes style-level values that would contradict it. Run-level
// direction flags leave the styles: they are set per run, so Latin text
// never inherits w:rtl.
func (ps *pass) layoutStyles(root *node) {
	r := root.rootElem()
	dd := r.child("docDefaults")
	if dd == nil {
		dd = newW(r, "docDefaults")
		r.insertAt(firstElemIndex(r), dd)
	}
	pprd := ensure(dd, "pPrDefault", docDefaultsOrder)
	ppr := ensureFirst(pprd, "pPr")
	rprd := ensure(dd, "rPrDefault", docDefaultsOrder)
	rpr := ensureFirst(rprd, "rPr")
	if ps.m.targetRTL {
		setFlag(ppr, "bidi", true, pPrOrder)
	} else {
		ppr.removeW("bidi")
	}
	for _, st := range r.childrenW("style") {
		if p := st.child("pPr"); p != nil {
			if b := p.child("bidi"); b != nil && on(b) != ps.m.targetRTL {
				p.removeW("bidi")
			}
			ps.physicalPPr(p)
			ps.mapKashida(p)
		}
	}
	// Every rPr of the sheet: direction flags off, complex-script twins,
	// fonts and language.
	r.walk(func(n *node) bool {
		if n.isW("rPrChange") || n.isW("pPrChange") {
			return false
		}
		if n.isW("rPr") {
			n.removeW("rtl")
			n.removeW("cs")
			ps.twins(n)
			ps.fonts(n)
			ps.lang(n, false)
		}
		return true
	})
	if ps.needsCSFont() {
		rf := ensure(rpr, "rFonts", rPrOrder)
		if cs, ok := rf.attr("cs"); !ok || cs != ps.csFont {
			if _, theme := rf.attr("cstheme"); theme || !ok {
				rf.delAttr("cstheme")
				rf.setAttr("cs", ps.csFont)
			}
		}
	}
	ps.lang(rpr, true)
}

func firstElemIndex(n *node) int {
	for i, c := range n.children {
		if c.kind == elemNode {
			return i
		}
	}
	return len(n.children)
}

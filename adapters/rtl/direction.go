package rtl

import (
	"unicode"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// docDirection is what a document says about its own direction, whatever
// its language was detected as (issue 10 §1): a document with Latin text
// but right-to-left paragraphs and tables is laid out right to left.
type docDirection struct {
	markup                   bool // a paragraph, table, section or run is set right to left
	rtlParas, ltrParas       int  // paragraphs with text, by effective direction
	rtlLetters, otherLetters int  // letters of RTL scripts and of any other script
	scriptLang               string
}

// mostlyRTL: most paragraphs with text are right to left.
func (d docDirection) mostlyRTL() bool { return d.rtlParas > d.ltrParas }

// hasRTL: direction matters even for an LTR target, since something in the
// document is right to left.
func (d docDirection) hasRTL() bool { return d.markup || d.rtlLetters > 0 || d.rtlParas > 0 }

// gatherFacts adds what block b says about the streamed tables holding it
// to facts, indexed by their order: what table finds in a laid-out tree,
// found before the layout (a paragraph's direction is paragraph's). A
// paragraph whose text is translated (unitOf names its unit) has the
// direction of its translation: the unit is noted, for the render to look
// at once it is translated.
func gatherFacts(facts []tableFacts, b *ooxml.Block, unitOf func(*node) string) []tableFacts {
	if len(b.Tables) == 0 {
		return facts
	}
	for len(facts) <= b.Tables[len(b.Tables)-1].Index {
		facts = append(facts, tableFacts{})
	}
	if t := b.Tables[len(b.Tables)-1]; b.N.Parent == t.N {
		f := &facts[t.Index]
		switch {
		case b.N.IsW("tblPr"):
			f.hasPr = true
		case b.N.IsW("tblGrid") && !f.hasGrid:
			f.hasGrid = true
			f.grid = gridWidth(t.N)
		}
	}
	rtl := false
	var units []string
	b.C.Walk(func(n *node) bool {
		if !n.IsW("p") {
			return !rtl
		}
		if id := unitOfPara(unitOf, n); id != "" {
			units = append(units, id)
		} else if paraRTL(paraText(storyRuns(n)), true) {
			rtl = true
		}
		return !rtl
	})
	for _, t := range b.Tables {
		f := &facts[t.Index]
		f.rtl = f.rtl || rtl
		if !f.rtl {
			f.units = append(f.units, units...)
		} else {
			f.units = nil
		}
	}
	return facts
}

func unitOfPara(unitOf func(*node) string, p *node) string {
	if unitOf == nil {
		return ""
	}
	return unitOf(p)
}

// treeHasDirection: n holds a direction element (w:bidi, w:rtl,
// w:bidiVisual, in any namespace and with any value) or a letter of a
// right-to-left script, which make a document's layout matter whatever
// its languages (nothingToDo's answer, from a tree).
func treeHasDirection(n *node) bool {
	found := false
	var walk func(n *node)
	walk = func(n *node) {
		for _, c := range n.Children {
			if found {
				return
			}
			switch c.Kind {
			case ooxml.ElemNode:
				switch c.Local {
				case "bidi", "rtl", "bidiVisual":
					found = true
					return
				}
				walk(c)
			case ooxml.TextNode:
				found = rtlLetters([]byte(c.Text), false)
			}
		}
	}
	walk(n)
	return found
}

// scan adds what an element of a story part says about direction.
func (d *docDirection) scan(r *node, st *styleSheet, he *bool) {
	r.Walk(func(n *node) bool {
		switch {
		case n.IsW("rPrChange") || n.IsW("pPrChange") || n.IsW("tblPrChange") || n.IsW("sectPrChange"):
			return false
		case n.IsW("p"):
			text := false
			for _, r := range storyRuns(n) {
				for _, c := range runText(r) {
					if unicode.IsLetter(c) {
						text = true
						break
					}
				}
			}
			bidi := st.effectiveBidi(n)
			if bidi {
				d.markup = true
			}
			if text && bidi {
				d.rtlParas++
			} else if text {
				d.ltrParas++
			}
		case n.IsW("bidiVisual") && n.Parent.IsW("tblPr"), n.IsW("rtl") && n.Parent.IsW("rPr"),
			n.IsW("bidi") && n.Parent.IsW("sectPr"):
			if ooxml.On(n) {
				d.markup = true
			}
		case n.IsW("t"):
			for _, r := range n.TextOf() {
				switch {
				case !unicode.IsLetter(r):
				case inRTLBlock(r):
					d.rtlLetters++
					if r >= 0x0590 && r <= 0x05FF || r >= 0xFB1D && r <= 0xFB4F {
						*he = true
					}
				default:
					d.otherLetters++
				}
			}
		}
		return true
	})
}

// relevant is false only where direction does not matter: an LTR target
// and a document with nothing right to left in it.
func (ps *pass) relevant() bool {
	return ps.m.targetRTL || ps.m.sourceRTL || ps.m.rtlLang != "" || ps.doc.hasRTL()
}

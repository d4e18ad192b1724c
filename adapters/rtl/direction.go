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

// direction scans the story parts once, block by block: paragraph
// directions (direct, style chain, defaults), tables, sections and runs
// flagged RTL, and the letters of each script; and the main part's
// sections (their pages, the headers and footers they refer to).
func (pk *pkg) direction(st *styleSheet) (docDirection, sections, error) {
	var d docDirection
	var secs sections
	refs := map[string]int{}
	he := false
	for _, name := range pk.stories {
		main := name == pk.mainDoc
		var facts []tableFacts
		err := pk.eachBlock(name, nil, func(b storyBlock) {
			if main {
				secs.add(b.c, refs)
			}
			d.scan(b.c, st, &he)
			facts = gatherFacts(facts, b)
		})
		if err != nil {
			return d, secs, err
		}
		pk.tables[name] = facts
	}
	switch {
	case he:
		d.scriptLang = "he"
	case d.rtlLetters > 0:
		d.scriptLang = "ar"
	}
	return d, secs, secs.resolveParts(pk, refs)
}

// gatherFacts adds what block b says about the streamed tables holding it
// to facts, indexed by their order: what table finds in a laid-out tree,
// found before the layout (a paragraph's direction is paragraph's).
func gatherFacts(facts []tableFacts, b storyBlock) []tableFacts {
	if len(b.tables) == 0 {
		return facts
	}
	for len(facts) <= b.tables[len(b.tables)-1].index {
		facts = append(facts, tableFacts{})
	}
	if t := b.tables[len(b.tables)-1]; b.n.Parent == t.n {
		f := &facts[t.index]
		switch {
		case b.n.IsW("tblPr"):
			f.hasPr = true
		case b.n.IsW("tblGrid") && !f.hasGrid:
			f.hasGrid = true
			f.grid = gridWidth(t.n)
		}
	}
	rtl := false
	b.c.Walk(func(n *node) bool {
		if n.IsW("p") && paraRTL(paraText(storyRuns(n)), true) {
			rtl = true
		}
		return !rtl
	})
	if rtl {
		for _, t := range b.tables {
			facts[t.index].rtl = true
		}
	}
	return facts
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

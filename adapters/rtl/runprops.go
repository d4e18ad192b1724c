package rtl

import (
	"slices"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// twinMode says how Latin and complex-script twins are reconciled.
type twinMode uint8

const (
	twinsForce   twinMode = iota // LTR→RTL: bCs=b, iCs=i, szCs=sz exactly
	twinsMissing                 // same direction: add a missing cs twin, keep the author's
	twinsReverse                 // RTL→LTR: b=bCs… where only the cs value was set
)

var twinPairs = [][2]string{{"b", "bCs"}, {"i", "iCs"}, {"sz", "szCs"}}

// twins mirrors complex-script formatting (brief row 13): bold, italic and
// size set only through b/i/sz do nothing to Arabic or Hebrew letters.
func (ps *pass) twins(rpr *node) {
	if !ps.m.touchTwins {
		return
	}
	for _, pair := range twinPairs {
		lat, cs := rpr.Child(pair[0]), rpr.Child(pair[1])
		switch ps.m.twins {
		case twinsForce:
			// Each level ends with both or neither, so the effective cs
			// value always equals the effective Latin value.
			if lat != nil && (cs == nil || !sameAttrs(lat, cs)) {
				copyTwin(rpr, lat, cs, pair[1])
			} else if lat == nil && cs != nil {
				rpr.Remove(cs)
			}
		case twinsMissing:
			if lat != nil && cs == nil {
				copyTwin(rpr, lat, nil, pair[1])
			}
		case twinsReverse:
			if cs != nil && lat == nil {
				copyTwin(rpr, cs, nil, pair[0])
			} else if lat != nil && cs == nil {
				// RTL text that stays (names, quotations) still
				// needs its twin, at every level (issue 10 §5).
				copyTwin(rpr, lat, nil, pair[1])
			}
		}
	}
}

// dropRepeats removes a run property written twice with the same value
// (LibreOffice's RTF import exports bold as <w:b/><w:b/>): w:rPr allows
// each at most once, and the twins pass must see one.
func dropRepeats(rpr *node) {
	seen := map[string]*node{}
	for _, c := range slices.Clone(rpr.Children) {
		if c.Kind != ooxml.ElemNode || c.NS != rpr.NS {
			continue
		}
		if first, ok := seen[c.Local]; ok && slices.Equal(first.Attrs, c.Attrs) && len(c.Children) == 0 {
			rpr.Remove(c)
		} else if !ok {
			seen[c.Local] = c
		}
	}
}

// latinRunTwins runs before the twins pass of an RTL→LTR job, which gives
// a run its complex-script values where it has no Latin ones so that the
// English text keeps the look of the Arabic. A run that had no w:rtl or
// w:cs and no right-to-left letters (a name like "GNU", a number) was shown
// with its Latin values, inherited from its style, not with its cs ones:
// those are dropped first so that its translation keeps that look. They
// were invisible on its Latin text and would stay so on the translation.
func (ps *pass) latinRunTwins(r *node) {
	if !ps.m.touchTwins || ps.m.twins != twinsReverse {
		return
	}
	rpr := r.Child("rPr")
	if rpr == nil || ooxml.On(rpr.Child("rtl")) || ooxml.On(rpr.Child("cs")) || hasRTL(runText(r)) {
		return
	}
	for _, pair := range twinPairs {
		if cs := rpr.Child(pair[1]); cs != nil && rpr.Child(pair[0]) == nil {
			rpr.Remove(cs)
		}
	}
}

// rtlRunTwins makes a right-to-left run's complex-script values equal its
// Latin ones where both are set and differ (brief §5.1 rule 5: sz ⇒ szCs
// with an equal value). The Latin value is the one kept: it is the run's
// formatting as the structure check sees it, and what Word shows for
// Latin fragments of the translated text.
func (ps *pass) rtlRunTwins(rpr *node) {
	if ps.m.twins == twinsForce || rpr.Parent == nil || !rpr.Parent.IsW("r") || !hasRTL(runText(rpr.Parent)) {
		return
	}
	for _, pair := range twinPairs {
		lat, cs := rpr.Child(pair[0]), rpr.Child(pair[1])
		switch {
		case lat != nil && cs == nil:
			copyTwin(rpr, lat, nil, pair[1])
		case lat != nil && !sameAttrs(lat, cs):
			copyTwin(rpr, lat, cs, pair[1])
		}
	}
}

func copyTwin(rpr, from, to *node, local string) {
	if to == nil {
		to = ooxml.NewW(rpr, local)
		insertOrdered(rpr, to, rPrOrder)
	}
	to.Attrs = nil
	if v, ok := from.Attr("val"); ok {
		to.SetAttr("val", v)
	}
}

func sameAttrs(a, b *node) bool {
	if a.Local != "sz" {
		return ooxml.On(a) == ooxml.On(b)
	}
	va, _ := a.Attr("val")
	vb, _ := b.Attr("val")
	return va == vb
}

// fonts gives complex-script text a font that covers the script:
// theme references are replaced by an explicit @cs, and a @cs without
// coverage is substituted; substitutions are reported.
func (ps *pass) fonts(rpr *node) {
	if !ps.needsCSFont() {
		return
	}
	rf := rpr.Child("rFonts")
	if rf == nil || rpr.Parent != nil && (rpr.Parent.NS == nsMath || rpr.Parent.NS == nsMathStrict) {
		return // math runs keep their math font
	}
	if _, theme := rf.Attr("cstheme"); theme {
		rf.DelAttr("cstheme")
		rf.SetAttr("cs", ps.csFont)
		return
	}
	cs, ok := rf.Attr("cs")
	if !ok || cs == ps.csFont {
		return
	}
	if !ps.coverage.Covers(cs, ps.m.csLang) {
		rf.SetAttr("cs", ps.csFont)
		ps.substituted[cs] = true
	}
}

// lang points w:lang at the target: @bidi for RTL targets where it is set
// (and in docDefaults always), @val for LTR targets translated from RTL.
func (ps *pass) lang(rpr *node, defaults bool) {
	l := rpr.Child("lang")
	if ps.m.targetRTL {
		if l == nil && !defaults {
			return
		}
		if _, has := l.Attr("bidi"); !has && !defaults {
			return
		}
		if l == nil {
			l = ooxml.NewW(rpr, "lang")
			insertOrdered(rpr, l, rPrOrder)
		}
		l.SetAttr("bidi", locale(ps.m.target))
		return
	}
	if !ps.m.sourceRTL || l == nil {
		return
	}
	if _, has := l.Attr("val"); has || defaults {
		l.SetAttr("val", locale(ps.m.target))
	}
	// Word sets Hindi with the complex-script properties: @bidi is its
	// language there, not the source's.
	if _, has := l.Attr("bidi"); ps.m.csLang == ps.m.target && (has || defaults) {
		l.SetAttr("bidi", locale(ps.m.target))
	}
}

func (ps *pass) needsCSFont() bool { return ps.csFont != "" }

// ownCSFont names the complex-script font on a right-to-left run of a
// package without a style sheet: there are no docDefaults to carry it.
func (ps *pass) ownCSFont(rpr *node) {
	if ps.styles.defaults != nil || !ps.needsCSFont() || rpr.Parent == nil || !rpr.Parent.IsW("r") || !ooxml.On(rpr.Child("rtl")) {
		return
	}
	rf := ensure(rpr, "rFonts", rPrOrder)
	if _, ok := rf.Attr("cs"); !ok {
		rf.SetAttr("cs", ps.csFont)
	}
}

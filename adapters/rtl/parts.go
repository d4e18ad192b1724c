package rtl

import (
	"encoding/xml"
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// layoutNumbering fixes list levels: cs twins and fonts in lvl/rPr,
// directional bullets swapped, native number formats back to decimal in
// LTR output. lvlJc and ind stay: they are logical.
func (ps *pass) layoutNumbering(root *node) {
	root.RootElem().Walk(func(n *node) bool {
		switch {
		case n.IsW("rPr"):
			ps.twins(n)
			ps.fonts(n)
		case n.IsW("lvlText"):
			font := n.Parent.Child("rPr").Child("rFonts").AttrOr("ascii", "")
			if ps.m.flip {
				n.SetAttr("val", ps.mirrorText(n.AttrOr("val", ""), font))
			}
			// A bullet the complex-script font lacks (Noto Nastaliq
			// Urdu has no "•") is drawn in its fallback; symbol fonts
			// keep their own.
			if ps.fallback != "" && !symbolFont(font) && strings.ContainsFunc(n.AttrOr("val", ""), func(r rune) bool { return ps.lacks[r] }) {
				ps.useFallback(ensure(n.Parent, "rPr", lvlOrder))
			}
		case n.IsW("numFmt") && ps.m.flip && !ps.m.targetRTL:
			switch n.AttrOr("val", "") {
			case "arabicAbjad", "arabicAlpha", "hebrew1", "hebrew2", "hindiNumbers", "hindiCounting":
				n.SetAttr("val", "decimal")
			}
		}
		return true
	})
}

// symbolFont: a font whose characters are pictures at private code
// points (Symbol, Wingdings…), not text.
func symbolFont(font string) bool {
	f := strings.ToLower(font)
	return f == "symbol" || strings.HasPrefix(f, "wingdings") || strings.HasPrefix(f, "webdings")
}

// mirrorText swaps pointing glyphs (brief row 18).
func (ps *pass) mirrorText(s, font string) string {
	rs := []rune(s)
	for i, r := range rs {
		switch strings.ToLower(font) {
		case "wingdings":
			if m, ok := wingdingsMirror[r]; ok && pointsForward(r, ps.m.targetRTL, wingdingsRight) {
				rs[i] = m
			}
		case "symbol":
			if m, ok := symbolMirror[r]; ok && pointsForward(r, ps.m.targetRTL, symbolRight) {
				rs[i] = m
			}
		default:
			table := mirrorGlyph
			if !ps.m.targetRTL {
				table = mirrorGlyphBack
			}
			if m, ok := table[r]; ok {
				rs[i] = m
			}
		}
	}
	return string(rs)
}

var (
	wingdingsRight = map[rune]bool{0xF0D8: true, 0xF0E0: true, 0xF0E8: true}
	symbolRight    = map[rune]bool{0xF0AE: true, 0xF0DE: true}
)

// pointsForward: in RTL output swap right-pointing glyphs, in LTR output
// left-pointing ones.
func pointsForward(r rune, rtl bool, right map[rune]bool) bool { return right[r] == rtl }

// layoutSettings names the target in themeFontLang/@bidi (so minorBidi
// theme fonts resolve to the target script) and asks Word to update
// fields whose cached results depend on the translated text.
func (ps *pass) layoutSettings(root *node, fields bool) {
	r := root.RootElem()
	if ps.m.targetRTL {
		tfl := ensure(r, "themeFontLang", settingsOrder)
		tfl.SetAttr("bidi", locale(ps.m.target))
	}
	if fields && ps.m.flip {
		setFlag(r, "updateFields", true, settingsOrder)
	}
	if ps.m.flip {
		mirrorMathJc(mathChild(mathChild(r, "mathPr"), "defJc"))
	}
}

// layoutFontTable declares the complex-script font, and its fallback,
// with their charset so Word substitutes a same-script font where one is
// missing.
func (ps *pass) layoutFontTable(root *node) {
	r := root.RootElem()
	for _, name := range []string{ps.csFont, ps.fallback} {
		if name != "" {
			declareFont(r, name, charsetOf(ps.m.csLang))
		}
	}
}

// declareFont adds a w:font entry to the font table r unless it has one.
func declareFont(r *node, name, charset string) {
	for _, f := range r.ChildrenW("font") {
		if strings.EqualFold(f.AttrOr("name", ""), name) {
			return
		}
	}
	f := ooxml.NewW(r, "font")
	f.SetAttr("name", name)
	cs := ooxml.NewW(r, "charset")
	cs.SetAttr("val", charset)
	fam := ooxml.NewW(r, "family")
	fam.SetAttr("val", "auto")
	pitch := ooxml.NewW(r, "pitch")
	pitch.SetAttr("val", "variable")
	for _, c := range []*node{cs, fam, pitch} {
		insertOrdered(f, c, fontOrder)
	}
	r.InsertAt(len(r.Children), f)
}

var xmlSpacePreserve = xml.Attr{Name: xml.Name{Space: "xml", Local: "space"}, Value: "preserve"}

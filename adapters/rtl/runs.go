package rtl

import (
	"strings"

	"github.com/dragoman-translate/dragoman/adapters/ooxml"
)

// runs rewrites the text of a paragraph's runs (marks, digits) and splits
// them at direction boundaries so that w:rtl sits only on RTL-script and
// neutral text and never on a run with Latin letters.
func (ps *pass) runs(runs []*node, text []rune, paraRTL bool) {
	insert := map[int]bool{}
	if paraRTL && ps.m.targetRTL && hasRTL(string(text)) && !ps.useNative() {
		for _, i := range markPositions(text, ps.m.arabicScript) {
			insert[i] = true
		}
	}
	// Rebuild the text with marks so spans see them as neutrals.
	var full []rune
	for i, r := range text {
		if insert[i] {
			full = append(full, lrm)
		}
		if m, ok := latinPunct[r]; ok && !paraRTL && ps.m.targetRTL {
			r = m // only Latin text is left to right in RTL output (paragraph)
		}
		full = append(full, ps.digit(r, paraRTL))
	}
	foreign := foreignSpans(full, paraRTL)
	kinds := make([]span, len(full))
	for i, r := range full {
		switch {
		case foreign[i]:
			kinds[i] = spanForeign
		case paraRTL && ps.lacks[r]:
			kinds[i] = spanFallback
		}
	}
	pos, src := 0, 0
	for _, r := range runs {
		ps.splitRun(r, paraRTL, func(n int) ([]rune, []span) {
			var out []rune
			var fl []span
			for k := 0; k < n; k++ {
				if insert[src] {
					out = append(out, full[pos])
					fl = append(fl, kinds[pos])
					pos++
				}
				out = append(out, full[pos])
				fl = append(fl, kinds[pos])
				pos++
				src++
			}
			return out, fl
		})
	}
}

// span is what a character of a paragraph is for run splitting.
type span uint8

const (
	spanBase     span = iota // the paragraph's direction
	spanForeign              // the other direction (foreignSpans)
	spanFallback             // the paragraph's, in a character the complex-script font lacks
)

// chooseFallback settles the font for the characters the complex-script
// font lacks (csFallback), where the target has one and the coverage
// knows the font's characters.
func (ps *pass) chooseFallback() {
	fb := csFallback[ps.m.csLang]
	gc, ok := ps.coverage.(GlyphCoverage)
	if fb == "" || !ok || strings.EqualFold(fb, ps.csFont) {
		return
	}
	lacks := gc.Lacks(ps.csFont, neededRunes(ps.m.csLang))
	if len(lacks) == 0 {
		return
	}
	ps.fallback, ps.lacks = fb, map[rune]bool{}
	for _, r := range lacks {
		ps.lacks[r] = true
	}
}

// useFallback names the fallback font on a run of characters the
// complex-script font lacks, in every slot: Word takes it from @cs (the run
// has w:rtl), LibreOffice from the slot of the script it gives the
// character (its neighbours'). Theme fonts would win over it: dropped.
func (ps *pass) useFallback(rpr *node) {
	rf := ensure(rpr, "rFonts", rPrOrder)
	for _, a := range []string{"asciiTheme", "hAnsiTheme", "cstheme", "eastAsiaTheme"} {
		rf.DelAttr(a)
	}
	for _, a := range []string{"ascii", "hAnsi", "cs"} {
		rf.SetAttr(a, ps.fallback)
	}
}

func (ps *pass) useNative() bool {
	_, ok := nativeDigits(ps.m.target)
	return ps.opts.NativeDigits && ok
}

// digit transliterates digits for the target (an option for Arabic and
// Persian) and back to 0–9 in LTR output.
func (ps *pass) digit(r rune, paraRTL bool) rune {
	if !ps.m.targetRTL || !paraRTL {
		if e, ok := europeanDigit(r); ok && ps.m.sourceRTL && !ps.m.targetRTL {
			return e
		}
		return r
	}
	if zero, ok := nativeDigits(ps.m.target); ok && ps.opts.NativeDigits && r >= '0' && r <= '9' {
		return zero + (r - '0')
	}
	return r
}

// splitRun replaces r by one run per direction span. next(n) yields the
// rewritten text and spans for the run's next n source runes.
func (ps *pass) splitRun(r *node, paraRTL bool, next func(n int) ([]rune, []span)) {
	rpr := r.Child("rPr")
	var groups [][]*node // children per output run
	var flags []span     // span kind per output run
	var cur []*node
	curFlag, started := spanBase, false
	flush := func() {
		if len(cur) > 0 {
			groups = append(groups, cur)
			flags = append(flags, curFlag)
		}
		cur = nil
	}
	hasText, hasInstr := false, false
	for _, c := range r.Children {
		if c == rpr {
			continue
		}
		if !c.IsW("t") {
			if c.IsW("instrText") || c.IsW("fldChar") {
				hasInstr = true
			}
			cur = append(cur, c)
			continue
		}
		hasText = true
		orig := []rune(c.TextOf())
		txt, fl := next(len(orig))
		for i := 0; i < len(txt); {
			j := i
			for j < len(txt) && fl[j] == fl[i] {
				j++
			}
			if started && fl[i] != curFlag {
				flush()
			}
			curFlag, started = fl[i], true
			t := ooxml.NewW(c, "t")
			t.Attrs = append(t.Attrs[:0], c.Attrs...)
			seg := string(txt[i:j])
			if strings.TrimSpace(seg) != seg {
				setSpacePreserve(t)
			}
			t.SetText(seg)
			cur = append(cur, t)
			i = j
		}
		if len(txt) == 0 {
			cur = append(cur, c)
		}
	}
	flush()
	if !hasText {
		if hasInstr {
			return
		}
		if paraRTL && ps.m.targetRTL && !hostsText(r) {
			setFlag(ensureFirst(r, "rPr"), "rtl", true, rPrOrder)
		} else if rpr != nil && (!paraRTL || hostsText(r)) {
			// A run hosting a text box holds the box's paragraphs,
			// which have their own runs: w:rtl on the host would
			// cover their Latin text too (brief §5.1 rule 4).
			rpr.RemoveW("rtl")
		}
		return
	}
	parent := r.Parent
	at := parent.IndexOf(r)
	parent.Remove(r)
	for k, g := range groups {
		nr := &node{Kind: ooxml.ElemNode, Prefix: r.Prefix, Local: r.Local, NS: r.NS, Attrs: append(r.Attrs[:0:0], r.Attrs...)}
		if rpr != nil {
			nr.InsertAt(0, rpr.Clone())
		}
		for _, c := range g {
			nr.InsertAt(len(nr.Children), c)
		}
		rtlRun := (flags[k] == spanForeign) != paraRTL // foreign in LTR = RTL text; base in RTL
		if rtlRun {
			setFlag(ensureFirst(nr, "rPr"), "rtl", true, rPrOrder)
		} else if p := nr.Child("rPr"); p != nil {
			p.RemoveW("rtl")
			p.RemoveW("cs")
		}
		if flags[k] == spanFallback {
			ps.useFallback(ensureFirst(nr, "rPr"))
		}
		parent.InsertAt(at+k, nr)
	}
}

// hostsText: a run holding a drawing or VML shape with a text box.
func hostsText(r *node) bool {
	found := false
	r.Walk(func(n *node) bool {
		if n.IsW("txbxContent") {
			found = true
		}
		return !found
	})
	return found
}

func setSpacePreserve(t *node) {
	for _, a := range t.Attrs {
		if a.Name.Space == "xml" && a.Name.Local == "space" {
			return
		}
	}
	t.Attrs = append(t.Attrs, xmlSpacePreserve)
}

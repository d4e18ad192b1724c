package rtltest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
)

// Finding is one failed assertion.
type Finding struct {
	Part, Rule, Detail string
}

func (f Finding) String() string { return f.Part + ": " + f.Rule + ": " + f.Detail }

// Stats summarise what was checked.
type Stats struct {
	Paragraphs, RTLParagraphs, Tables, Sections, Runs int
	// EndAligned counts RTL paragraphs aligned to the end edge (jc right or
	// end): in RTL output they legitimately render flush left.
	EndAligned int
	// EndAlignedLTR counts LTR paragraphs aligned right or end.
	EndAlignedLTR int
}

// Coverage tells whether a font covers a language (see Fontconfig).
type Coverage func(family, lang string) bool

// Target describes the expected output.
type Target struct {
	RTL  bool
	Lang string // ISO code of the target or of the RTL script checked for fonts
	// ForceTwins demands cs twins equal to the Latin values (LTR→RTL).
	ForceTwins bool
	Covers     Coverage
}

var (
	rtlChar     = regexp.MustCompile("[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]")
	latinLetter = regexp.MustCompile("[A-Za-z]")
	// An Arabic-script letter, then no letter (of any script: a Hindi word
	// left untranslated in Urdu is as strong as a Latin one) nor LRM, then
	// a number with a separator: UBA rule W2 scrambles it.
	arabicNum = regexp.MustCompile("[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF][^0-9\\p{L}\u200E]*[0-9]+[-/.][0-9]")
)

// CheckXML runs the XML assertions (numbered as in README "How the RTL
// output is checked") on out; src is the same document
// before layout (rule 6 compares logical values between the two).
func CheckXML(src, out []byte, t Target) ([]Finding, Stats, error) {
	var fs []Finding
	var st Stats
	od, err := openDocx(out)
	if err != nil {
		return nil, st, fmt.Errorf("output: %w", err)
	}
	sd, err := openDocx(src)
	if err != nil {
		return nil, st, fmt.Errorf("source: %w", err)
	}
	sh := newSheet(od.parts["word/styles.xml"])
	// Rule 7 blames only order violations the source did not have.
	before := map[string]bool{}
	for _, name := range sd.stories() {
		if r := sd.parts[name]; r != nil {
			r.each(func(e *el) bool {
				for local, seq := range orderSeqs {
					if e.w(local) {
						checkOrder(e, seq, name, func(part, rule, format string, a ...any) {
							before[fmt.Sprintf(format, a...)] = true
						})
					}
				}
				return true
			})
		}
	}
	fail := func(part, rule, format string, a ...any) {
		fs = append(fs, Finding{part, rule, fmt.Sprintf(format, a...)})
	}
	for _, name := range od.stories() {
		root := od.parts[name]
		if root == nil {
			continue
		}
		root.each(func(e *el) bool {
			switch {
			case e.w("p"):
				st.Paragraphs++
				checkParagraph(e, sh, t, &st, name, fail)
			case e.w("tbl"):
				st.Tables++
				checkTable(e, sh, t, name, fail)
			case e.w("sectPr"):
				st.Sections++
				checkSection(e, t, name, fail)
			}
			for local, seq := range orderSeqs {
				if e.w(local) {
					checkOrder(e, seq, name, func(part, rule, format string, a ...any) {
						if !before[fmt.Sprintf(format, a...)] {
							fail(part, rule, format, a...)
						}
					})
				}
			}
			return true
		})
		// Rule 6: logical values unchanged.
		if sr := sd.parts[name]; sr != nil {
			a, b := logicalValues(sr), logicalValues(root)
			if a != b {
				fail(name, "6 logical values changed", "%s", firstDiff(a, b))
			}
		}
	}
	if t.RTL {
		checkStyleTwins(od, t, fail)
		if set := od.parts["word/settings.xml"]; set != nil {
			if v := set.kid("themeFontLang").attr["bidi"]; v == "" {
				fail("word/settings.xml", "15 themeFontLang", "no w:themeFontLang/@w:bidi")
			}
		}
	}
	if a, b := logicalValues(sd.parts["word/numbering.xml"]), logicalValues(od.parts["word/numbering.xml"]); a != b {
		fail("word/numbering.xml", "6 logical values changed", "%s", firstDiff(a, b))
	}
	return fs, st, nil
}

func checkParagraph(p *el, sh *sheet, t Target, st *Stats, part string, fail func(part, rule, format string, a ...any)) {
	text := paraText(p)
	if strings.TrimSpace(text) == "" {
		return
	}
	rtl := rtlChar.MatchString(text)
	bidi := sh.bidi(p)
	if rtl {
		st.RTLParagraphs++
	}
	jc := sh.pProp(p, "jc").attrOr("val")
	if bidi && rtl && (jc == "right" || jc == "end") {
		st.EndAligned++
	}
	if !bidi && (jc == "right" || jc == "end") {
		st.EndAlignedLTR++
	}
	short := clip(text)
	if t.RTL && rtl && !bidi {
		fail(part, "1 paragraph direction", "RTL text in a paragraph that is not bidi: %q", short)
	}
	if !t.RTL && !rtl && bidi {
		fail(part, "1 paragraph direction", "LTR text in a bidi paragraph: %q", short)
	}
	if t.RTL && bidi && !rtl && latinLetter.MatchString(text) && strings.ContainsAny(lastRune(text), ".!?:;)]") {
		fail(part, "8 Latin-only bidi paragraph", "ends with punctuation that will jump left: %q", short)
	}
	if t.RTL && bidi && arabicScript(t.Lang) {
		if m := arabicNum.FindString(text); m != "" {
			fail(part, "8 number without LRM", "%q", clip(m))
		}
	}
	p.each(func(r *el) bool {
		if r.w("txbxContent") {
			return false
		}
		if !r.w("r") {
			return true
		}
		st.Runs++
		var rt strings.Builder
		for _, k := range r.kids {
			if k.w("t") {
				rt.WriteString(k.text)
			}
		}
		s := rt.String()
		if latinLetter.MatchString(s) {
			if v, _ := flag(sh.rProp(p, r, "rtl")); v {
				fail(part, "4 w:rtl on Latin", "%q", clip(s))
			}
			if v, _ := flag(sh.rProp(p, r, "cs")); v {
				fail(part, "4 w:cs on Latin", "%q", clip(s))
			}
		}
		if t.RTL && rtlChar.MatchString(s) {
			checkRunTwins(p, r, sh, t, part, s, fail)
		}
		return false
	})
}

// checkRunTwins: rule 5 on the effective values of a run with RTL text.
func checkRunTwins(p, r *el, sh *sheet, t Target, part, s string, fail func(part, rule, format string, a ...any)) {
	if t.ForceTwins {
		for _, pair := range [][2]string{{"b", "bCs"}, {"i", "iCs"}} {
			lat, _ := flag(sh.rProp(p, r, pair[0]))
			cs, _ := flag(sh.rProp(p, r, pair[1]))
			if lat && !cs {
				fail(part, "5 cs twins", "w:%s without w:%s on RTL run %q", pair[0], pair[1], clip(s))
			}
		}
		sz, szcs := sh.rProp(p, r, "sz"), sh.rProp(p, r, "szCs")
		if sz != nil && sz.attrOr("val") != szcs.attrOr("val") {
			fail(part, "5 cs twins", "effective sz=%s szCs=%s on RTL run %q", sz.attrOr("val"), szcs.attrOr("val"), clip(s))
		}
	}
	font, theme := sh.csFont(p, r)
	switch {
	case theme != "":
		fail(part, "5 cs font", "theme cs font %s left on RTL run %q", theme, clip(s))
	case font == "":
		fail(part, "5 cs font", "no @w:cs font for RTL run %q", clip(s))
	case t.Covers != nil && !t.Covers(font, t.Lang):
		fail(part, "5 cs font", "font %q does not cover %s (run %q)", font, t.Lang, clip(s))
	}
}

// csFont resolves rFonts/@cs (or @cstheme) attribute by attribute.
func (s *sheet) csFont(p, r *el) (font, theme string) {
	levels := []*el{r.kid("rPr").kid("rFonts")}
	if rs := r.kid("rPr").kid("rStyle"); rs != nil {
		for _, st := range s.chain(rs.attr["val"]) {
			levels = append(levels, st.kid("rPr").kid("rFonts"))
		}
	}
	for _, st := range s.chain(s.paraStyle(p)) {
		levels = append(levels, st.kid("rPr").kid("rFonts"))
	}
	levels = append(levels, s.rPrDefault.kid("rFonts"))
	for _, l := range levels {
		if v, ok := l.get("cstheme"); ok {
			return "", v
		}
		if v, ok := l.get("cs"); ok {
			return v, ""
		}
	}
	return "", ""
}

// checkStyleTwins: rule 5 for styles, defaults and numbering levels.
func checkStyleTwins(d *docx, t Target, fail func(part, rule, format string, a ...any)) {
	for _, name := range []string{"word/styles.xml", "word/numbering.xml"} {
		root := d.parts[name]
		if root == nil {
			continue
		}
		root.each(func(e *el) bool {
			if e.w("rPrChange") {
				return false
			}
			if !e.w("rPr") {
				return true
			}
			for _, pair := range [][2]string{{"b", "bCs"}, {"i", "iCs"}, {"sz", "szCs"}} {
				lat, cs := e.kid(pair[0]), e.kid(pair[1])
				if lat == nil {
					continue
				}
				if cs == nil {
					fail(name, "5 cs twins", "w:%s without w:%s in %s", pair[0], pair[1], owner(e))
				} else if t.ForceTwins && lat.attrOr("val") != cs.attrOr("val") {
					fail(name, "5 cs twins", "w:%s=%q but w:%s=%q in %s", pair[0], lat.attrOr("val"), pair[1], cs.attrOr("val"), owner(e))
				}
			}
			return false
		})
	}
}

func owner(e *el) string {
	for p := e.parent; p != nil; p = p.parent {
		if id := p.attr["styleId"]; id != "" {
			return "style " + id
		}
		if p.w("lvl") {
			return "numbering level " + p.attr["ilvl"]
		}
		if p.w("docDefaults") {
			return "docDefaults"
		}
	}
	return "?"
}

func checkTable(tb *el, sh *sheet, t Target, part string, fail func(part, rule, format string, a ...any)) {
	bv, set := flag(tb.kid("tblPr").kid("bidiVisual"))
	if t.RTL {
		rtlParas := false
		tb.each(func(e *el) bool {
			if e.w("p") && sh.bidi(e) && rtlChar.MatchString(paraText(e)) {
				rtlParas = true
			}
			return !rtlParas
		})
		if rtlParas && !bv {
			fail(part, "3 table direction", "table with RTL paragraphs has no w:bidiVisual (%q)", clip(paraText(tb)))
		}
		return
	}
	if bv || !set {
		fail(part, "3 table direction", "LTR output needs an explicit <w:bidiVisual w:val=\"0\"/> (%q)", clip(paraText(tb)))
	}
}

func checkSection(s *el, t Target, part string, fail func(part, rule, format string, a ...any)) {
	if b, _ := flag(s.kid("bidi")); b != t.RTL {
		fail(part, "2 section direction", "sectPr/bidi=%v, want %v", b, t.RTL)
	}
	if g := s.kid("pgMar").attrOr("gutter"); g != "" && g != "0" {
		if b, _ := flag(s.kid("rtlGutter")); b != t.RTL {
			fail(part, "2 gutter", "rtlGutter=%v with gutter %s", b, g)
		}
	}
}

// logicalValues serialises the values a conversion must not swap.
func logicalValues(root *el) string {
	if root == nil {
		return ""
	}
	var b strings.Builder
	root.each(func(e *el) bool {
		if e.w("p") && chartParagraph(e) {
			return false // left to right in RTL output, aligned physically (adapters/rtl charts.go)
		}
		if e.w("jc") || e.w("ind") || e.w("tab") || e.w("lvlJc") || e.w("tblInd") {
			b.WriteString(e.local)
			for _, k := range []string{"val", "left", "right", "start", "end", "firstLine", "hanging", "pos", "w", "type"} {
				if v, ok := e.attr[k]; ok {
					if k == "val" && strings.HasSuffix(v, "Kashida") {
						v = "both" // mapped on purpose for non-Arabic targets
					}
					b.WriteString(" " + k + "=" + v)
				}
			}
			b.WriteByte('\n')
		}
		if e.w("tblBorders") || e.w("tcMar") || e.w("tblCellMar") {
			b.WriteString(e.local)
			for _, k := range e.kids {
				b.WriteString(" " + k.local + ":" + k.attr["val"] + "/" + k.attr["w"] + "/" + k.attr["sz"])
			}
			b.WriteByte('\n')
		}
		return true
	})
	return b.String()
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(al) && i < len(bl); i++ {
		if al[i] != bl[i] {
			return fmt.Sprintf("source %q, output %q", al[i], bl[i])
		}
	}
	return fmt.Sprintf("%d values in the source, %d in the output", len(al), len(bl))
}

// Schema sequences for rule 7.
var (
	pPrSeq    = seqOf("pStyle keepNext keepLines pageBreakBefore framePr widowControl numPr suppressLineNumbers pBdr shd tabs suppressAutoHyphens kinsoku wordWrap overflowPunct topLinePunct autoSpaceDE autoSpaceDN bidi adjustRightInd snapToGrid spacing ind contextualSpacing mirrorIndents suppressOverlap jc textDirection textAlignment textboxTightWrap outlineLvl divId cnfStyle rPr sectPr pPrChange")
	rPrSeq    = seqOf("rStyle rFonts b bCs i iCs caps smallCaps strike dstrike outline shadow emboss imprint noProof snapToGrid vanish webHidden color spacing w kern position sz szCs highlight u effect bdr shd fitText vertAlign rtl cs em lang eastAsianLayout specVanish oMath rPrChange")
	tblPrSeq  = seqOf("tblStyle tblpPr tblOverlap bidiVisual tblStyleRowBandSize tblStyleColBandSize tblW jc tblCellSpacing tblInd tblBorders shd tblLayout tblCellMar tblLook tblCaption tblDescription tblPrChange")
	sectPrSeq = seqOf("headerReference footerReference footnotePr endnotePr type pgSz pgMar paperSrc pgBorders lnNumType pgNumType cols formProt vAlign noEndnote titlePg textDirection bidi rtlGutter docGrid printerSettings sectPrChange")
)

var orderSeqs = map[string]map[string]int{"pPr": pPrSeq, "rPr": rPrSeq, "tblPr": tblPrSeq, "sectPr": sectPrSeq}

func seqOf(s string) map[string]int {
	m := map[string]int{}
	for i, f := range strings.Fields(s) {
		if _, ok := m[f]; !ok {
			m[f] = i
		}
	}
	return m
}

// checkOrder: rule 7, children in schema order (first violation only).
func checkOrder(e *el, seq map[string]int, part string, fail func(part, rule, format string, a ...any)) {
	last, lastName := -1, ""
	for _, k := range e.kids {
		if k.space != wT && k.space != wS {
			continue
		}
		pos, ok := seq[k.local]
		if !ok {
			continue
		}
		if pos < last {
			fail(part, "7 schema order", "w:%s after w:%s in w:%s", k.local, lastName, e.local)
			return
		}
		last, lastName = pos, k.local
	}
}

func (e *el) attrOr(local string) string {
	if e == nil {
		return ""
	}
	return e.attr[local]
}

func clip(s string) string {
	r := []rune(s)
	if len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}

func lastRune(s string) string {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	r := []rune(s)
	if len(r) == 0 {
		return ""
	}
	return string(r[len(r)-1])
}

func arabicScript(lang string) bool { return lang == "ar" || lang == "fa" || lang == "ur" }

// chartParagraph: a paragraph with inline charts and no text.
func chartParagraph(p *el) bool {
	chart := false
	p.each(func(e *el) bool {
		if e.local == "inline" && strings.HasSuffix(e.space, "wordprocessingDrawing") {
			e.each(func(c *el) bool {
				chart = chart || c.local == "chart" && strings.HasSuffix(c.space, "/chart")
				return !chart
			})
		}
		return !chart
	})
	return chart && strings.TrimSpace(paraText(p)) == ""
}

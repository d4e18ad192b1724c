package rtl

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// FontCoverage tells whether a font family has the glyphs of a language:
// its letters, and the digits and punctuation written with them
// (neededRunes). A font with the letters alone (Noto Sans Hebrew has no
// digits, no ASCII punctuation) leaves them to whatever the viewer falls
// back to: a "±" drawn over a "4", bold numbers in a regular face.
type FontCoverage interface {
	Covers(family, lang string) bool
}

// GlyphCoverage, when a FontCoverage has it, tells which of runes a family
// lacks: the complex-script font of a target with a fallback (csFallback)
// is used with it, for the characters it lacks.
type GlyphCoverage interface {
	Lacks(family string, runes []rune) []rune
}

// The complex-script font written when a document has none that covers
// the target, per language: free fonts of make deps (fonts-hosny-amiri,
// fonts-liberation2, fonts-noto-core) with the target's letters, digits
// and punctuation in regular and bold faces (TestCSFontsCover). Urdu is
// set in Nastaliq, as its readers expect; Noto Nastaliq Urdu lacks some
// ASCII punctuation (" ' % ; ? …), which the layout puts in runs of
// csFallback's font (runs.go). Word substitutes a same-charset font where
// one is missing (layoutFontTable).
var (
	defaultCSFont = map[string]string{
		"ar": "Amiri",
		"fa": "Amiri",
		"ur": "Noto Nastaliq Urdu",
		"he": "Liberation Sans",
		"hi": "Noto Sans Devanagari",
	}
	csFallback = map[string]string{
		"ur": "Amiri",
	}
)

// neededRunes are the characters a complex-script font must have for a
// language besides its letters: the digits, ASCII punctuation and the
// usual typographic marks, and the language's own punctuation and digits.
func neededRunes(lang string) []rune {
	var rs []rune
	for r := rune(0x21); r <= 0x7e; r++ {
		if r < 'A' || r > 'Z' && r < 'a' || r > 'z' {
			rs = append(rs, r)
		}
	}
	rs = append(rs, []rune("«»°±×÷–—‘’“”…•")...) // • the usual list bullet
	switch lang {
	case "ar":
		rs = append(rs, []rune("،؛؟٪٠١٢٣٤٥٦٧٨٩")...)
	case "fa":
		rs = append(rs, []rune("،؛؟٪۰۱۲۳۴۵۶۷۸۹\u200c")...)
	case "ur":
		rs = append(rs, []rune("،؛؟٪۔")...)
	case "he":
		rs = append(rs, []rune("־׳״₪")...)
	default:
		// A left-to-right complex script (Hindi from Urdu): its letters
		// are what the complex-script font is for; its digits and
		// punctuation are the Latin ones, which Word takes from the Latin
		// font of a run without w:rtl.
		return nil
	}
	return rs
}

// KnownFonts is coverage by a fixed table of fonts known to cover each
// language (Windows/Office fonts and the free defaults), for machines
// without fontconfig.
type KnownFonts struct{}

var knownCoverage = map[string][]string{
	"ar": {"arial", "times new roman", "tahoma", "segoe ui", "courier new", "traditional arabic", "simplified arabic", "sakkal majalla", "arabic typesetting", "microsoft sans serif", "amiri", "scheherazade", "scheherazade new", "dejavu sans", "andalus", "aldhabi"},
	"fa": {"arial", "times new roman", "tahoma", "segoe ui", "b nazanin", "vazirmatn", "amiri", "scheherazade", "scheherazade new"},
	"ur": {"urdu typesetting", "jameel noori nastaleeq", "noto nastaliq urdu", "nafees", "nafees nastaleeq", "arial", "tahoma", "times new roman", "segoe ui", "amiri", "scheherazade", "scheherazade new"},
	"he": {"arial", "times new roman", "tahoma", "segoe ui", "courier new", "david", "narkisim", "miriam", "frankruehl", "gisha", "levenim mt", "dejavu sans", "liberation sans", "liberation serif", "liberation mono"},
	"hi": {"mangal", "nirmala ui", "aparajita", "kokila", "utsaah", "noto sans devanagari", "noto serif devanagari", "lohit devanagari"},
}

// knownGaps are what the free defaults lack of neededRunes (as fontconfig
// reports for fonts-noto-core 20201225).
var knownGaps = map[string]string{
	"noto nastaliq urdu": "\"#$%&'*;<>?@^_`~°±…•",
}

// Covers implements FontCoverage.
func (KnownFonts) Covers(family, lang string) bool {
	f := strings.ToLower(strings.TrimSpace(family))
	for _, k := range knownCoverage[lang] {
		if f == k {
			return true
		}
	}
	return false
}

// Lacks implements GlyphCoverage.
func (KnownFonts) Lacks(family string, runes []rune) []rune {
	gaps := knownGaps[strings.ToLower(strings.TrimSpace(family))]
	var out []rune
	for _, r := range runes {
		if strings.ContainsRune(gaps, r) {
			out = append(out, r)
		}
	}
	return out
}

// Fontconfig is coverage by the fonts installed on this machine, the
// fonts a LibreOffice-based viewer or the render check will really use:
// the language's letters (`fc-list :lang=xx family`) and, every face of
// the family, neededRunes (`fc-list -f %{charset}`). Results are cached.
type Fontconfig struct {
	mu       sync.Mutex
	letters  map[string]map[string]bool // lang → families
	charsets map[string]charset         // family → what all its faces have
}

// Available reports whether fc-list can be run.
func (f *Fontconfig) Available() bool {
	_, err := exec.LookPath("fc-list")
	return err == nil
}

// Covers implements FontCoverage: the letters, and the digits and
// punctuation, except where the language has a fallback for them.
func (f *Fontconfig) Covers(family, lang string) bool {
	if !f.hasLetters(family, lang) {
		return false
	}
	gaps := f.Lacks(family, neededRunes(lang))
	if fb := csFallback[lang]; fb != "" && len(gaps) > 0 && strings.EqualFold(family, defaultCSFont[lang]) {
		gaps = f.Lacks(fb, gaps)
	}
	return len(gaps) == 0
}

func (f *Fontconfig) hasLetters(family, lang string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.letters == nil {
		f.letters = map[string]map[string]bool{}
	}
	set, ok := f.letters[lang]
	if !ok {
		set = map[string]bool{}
		out, err := exec.CommandContext(context.Background(), "fc-list", ":lang="+lang, "family").Output()
		if err == nil {
			for _, line := range strings.Split(string(out), "\n") {
				for _, name := range strings.Split(line, ",") {
					if name = strings.TrimSpace(name); name != "" {
						set[strings.ToLower(name)] = true
					}
				}
			}
		}
		f.letters[lang] = set
	}
	return set[strings.ToLower(strings.TrimSpace(family))]
}

// Lacks implements GlyphCoverage: the runes some installed face of the
// family lacks (all of them when it is not installed).
func (f *Fontconfig) Lacks(family string, runes []rune) []rune {
	cs := f.charsetOf(family)
	var out []rune
	for _, r := range runes {
		if !cs.has(r) {
			out = append(out, r)
		}
	}
	return out
}

func (f *Fontconfig) charsetOf(family string) charset {
	key := strings.ToLower(strings.TrimSpace(family))
	f.mu.Lock()
	defer f.mu.Unlock()
	if cs, ok := f.charsets[key]; ok {
		return cs
	}
	if f.charsets == nil {
		f.charsets = map[string]charset{}
	}
	var cs charset
	out, err := exec.CommandContext(context.Background(), "fc-list", "-f", "%{family}\t%{charset}\n", fcEscape(family)).Output()
	if err == nil {
		first := true
		for _, line := range strings.Split(string(out), "\n") {
			fams, ranges, ok := strings.Cut(line, "\t")
			if !ok || !hasFamily(fams, family) {
				continue
			}
			face := parseCharset(ranges)
			if first {
				cs, first = face, false
			} else {
				cs = cs.intersect(face)
			}
		}
	}
	f.charsets[key] = cs
	return cs
}

// fcEscape quotes a family name for a fontconfig pattern, in which '-',
// ':', ',' and '\\' separate or escape (Word files name fonts such as
// "Awami Nastaliq:agca=1").
func fcEscape(family string) string {
	var b strings.Builder
	for _, r := range family {
		if strings.ContainsRune(`\-:,`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func hasFamily(list, family string) bool {
	for _, n := range strings.Split(list, ",") {
		if strings.EqualFold(strings.TrimSpace(n), strings.TrimSpace(family)) {
			return true
		}
	}
	return false
}

// charset is a set of code points as fontconfig writes it ("20-7e a0 …",
// hexadecimal ranges).
type charset [][2]rune

func parseCharset(s string) charset {
	var cs charset
	for _, f := range strings.Fields(s) {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err1 := strconv.ParseUint(lo, 16, 32)
		b := a
		var err2 error
		if isRange {
			b, err2 = strconv.ParseUint(hi, 16, 32)
		}
		if err1 == nil && err2 == nil {
			cs = append(cs, [2]rune{rune(a), rune(b)})
		}
	}
	return cs
}

func (cs charset) has(r rune) bool {
	for _, rg := range cs {
		if r >= rg[0] && r <= rg[1] {
			return true
		}
	}
	return false
}

// intersect keeps the ranges of cs that other has too, rune by rune at
// the ranges' edges.
func (cs charset) intersect(other charset) charset {
	var out charset
	for _, a := range cs {
		for _, b := range other {
			lo, hi := max(a[0], b[0]), min(a[1], b[1])
			if lo <= hi {
				out = append(out, [2]rune{lo, hi})
			}
		}
	}
	return out
}

// charsetOf is the fontTable w:charset for a script (B2 Arabic, B1 Hebrew,
// 00 for scripts Windows has no code page for, such as Devanagari).
func charsetOf(lang string) string {
	switch lang {
	case "he":
		return "B1"
	case "hi":
		return "00"
	}
	return "B2"
}

// scriptName names a language's script in warnings.
func scriptName(lang string) string {
	switch lang {
	case "he":
		return "Hebrew"
	case "fa":
		return "Persian"
	case "ur":
		return "Urdu"
	case "hi":
		return "Devanagari"
	}
	return "Arabic"
}

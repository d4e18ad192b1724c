package review

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// textLength is how much text a language needs for what English says in
// 100 letters and digits: published figures for localisation (text
// expansion tables), rounded. A language not listed counts as 100.
var textLength = map[string]float64{
	"en": 100, "es": 118, "pt": 118, "fr": 118, "it": 115, "ca": 117, "gl": 117, "oc": 117, "an": 117,
	"ast": 117, "ro": 115, "de": 122, "nl": 120, "af": 112, "da": 108, "sv": 108, "nb": 108, "nn": 108,
	"no": 108, "is": 110, "pl": 118, "ru": 112, "uk": 112, "be": 112, "bg": 112, "mk": 112, "sr": 108,
	"hr": 108, "bs": 108, "sl": 108, "eu": 112, "eo": 108, "br": 118, "fi": 115, "et": 110, "hu": 118,
	"cs": 110, "sk": 110, "el": 118, "tr": 110, "id": 115, "ms": 115, "ar": 92, "he": 80, "fa": 95,
	"ur": 100, "hi": 100, "bn": 100, "zh": 32, "ja": 45, "ko": 50, "th": 95, "vi": 115,
}

// expectedRatio is the usual target length per source letter for a pair.
func expectedRatio(src, tgt string) float64 {
	a, b := textLength[base(src)], textLength[base(tgt)]
	if a == 0 {
		a = 100
	}
	if b == 0 {
		b = 100
	}
	return b / a
}

func base(code string) string {
	if l, ok := language.ByCode(code); ok && l.Of != "" {
		return l.Of
	}
	if i := strings.IndexByte(code, '-'); i > 0 {
		return code[:i]
	}
	return code
}

// Length bounds, as multiples of the pair's usual ratio, and the least
// source text they apply to: short segments vary too much.
const (
	longest     = 2.2
	shortest    = 0.45
	minLetters  = 25
	ratioFormat = "%.1f"
)

func letters(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// lengthFlag: a target far longer or shorter than the pair's usual ratio
// (text added, or a sentence cut short).
func (c *Checker) lengthFlag(src, tgt string) *Flag {
	return LengthFlag(src, tgt, c.ratio, c.job.SourceLang, c.job.TargetLang)
}

// LengthFlag compares the target's length with ratio × the source's.
func LengthFlag(src, tgt string, ratio float64, srcLang, tgtLang string) *Flag {
	s, t := letters(src), letters(tgt)
	if s < minLetters || ratio <= 0 {
		return nil
	}
	r := float64(t) / float64(s) / ratio
	if r <= longest && r >= shortest {
		return nil
	}
	pair := language.NameOf(srcLang) + " → " + language.NameOf(tgtLang)
	how := fmt.Sprintf("%s times as long as the original", fmt.Sprintf(ratioFormat, float64(t)/float64(s)))
	if r < shortest {
		how = fmt.Sprintf("only %d%% as long as the original", t*100/s)
	}
	return &Flag{Kind: Length, Severity: Medium, Message: fmt.Sprintf(
		"The translation is %s (about %s times is usual for %s): text may be missing or added.", how, fmt.Sprintf(ratioFormat, ratio), pair)}
}

// scriptSet is the scripts a language is written in.
type scriptSet struct {
	name   string
	tables []*unicode.RangeTable
}

// scripts maps ISO 15924 codes to Unicode's script tables; a code not
// listed is not checked.
var scripts = map[string][]string{
	"Latn": {"Latin"}, "Arab": {"Arabic"}, "Hebr": {"Hebrew"}, "Cyrl": {"Cyrillic"}, "Grek": {"Greek"},
	"Deva": {"Devanagari"}, "Beng": {"Bengali"}, "Guru": {"Gurmukhi"}, "Gujr": {"Gujarati"},
	"Taml": {"Tamil"}, "Telu": {"Telugu"}, "Knda": {"Kannada"}, "Mlym": {"Malayalam"}, "Sinh": {"Sinhala"},
	"Thai": {"Thai"}, "Laoo": {"Lao"}, "Khmr": {"Khmer"}, "Mymr": {"Myanmar"}, "Geor": {"Georgian"},
	"Armn": {"Armenian"}, "Ethi": {"Ethiopic"}, "Hans": {"Han"}, "Hant": {"Han"},
	"Jpan": {"Han", "Hiragana", "Katakana"}, "Kore": {"Hangul", "Han"}, "Tibt": {"Tibetan"},
}

func scriptOf(code string) *scriptSet {
	names := scripts[code]
	if len(names) == 0 {
		return nil
	}
	s := &scriptSet{name: code}
	for _, n := range names {
		s.tables = append(s.tables, unicode.Scripts[n])
	}
	return s
}

func (s *scriptSet) has(r rune) bool {
	return unicode.In(r, s.tables...) || unicode.Is(unicode.Common, r) || unicode.Is(unicode.Inherited, r)
}

// Least wrong-script letters for a flag, and their least share of the
// letters: a brand name in Latin letters inside an Urdu sentence is usual.
const (
	minForeign   = 4
	foreignShare = 0.2
)

// scriptFlag: letters of another script than the target's outside the
// spans meant to be there (addresses, placeholders, glossary and
// do-not-translate terms) and short acronyms (PDF, NATO).
func (c *Checker) scriptFlag(tgt string, keep []span) *Flag {
	if c.script == nil {
		return nil
	}
	rest := blank(tgt, keep)
	total, foreign := 0, 0
	var words []string
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) }) {
		n, bad := 0, 0
		upper := true
		for _, r := range w {
			if !unicode.IsLetter(r) {
				continue
			}
			n++
			if !c.script.has(r) {
				bad++
			}
			upper = upper && unicode.IsUpper(r)
		}
		total += n
		if bad == 0 || upper && n <= 6 {
			continue
		}
		foreign += bad
		words = append(words, w)
	}
	if foreign < minForeign || float64(foreign) < foreignShare*float64(total) {
		return nil
	}
	return &Flag{Kind: Script, Severity: Medium, Message: fmt.Sprintf(
		"Some words are not in the script %s is written in: %s.", language.NameOf(c.job.TargetLang), quoted(dedupe(words)))}
}

// isWordByte reports whether the rune ending at i (before) or starting at
// i (after) in s is a letter or digit.
func isWordByte(s string, i int, before bool) bool {
	var r rune
	if before {
		r, _ = utf8.DecodeLastRuneInString(s[:i+1])
	} else {
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

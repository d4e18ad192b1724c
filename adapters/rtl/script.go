package rtl

import (
	"regexp"
	"unicode"
)

// Directional marks. Isolates (U+2066–2069) are never written:
// LibreOffice 7.4 mis-orders text around them.
const (
	lrm = '\u200E'
	rlm = '\u200F'
)

// inRTLBlock reports whether r is in a right-to-left script block
// (Hebrew, Arabic, Syriac, Thaana, NKo, Samaritan, Mandaic, presentation forms).
func inRTLBlock(r rune) bool {
	return (r >= 0x0590 && r <= 0x08FF) || (r >= 0xFB1D && r <= 0xFDFF) ||
		(r >= 0xFE70 && r <= 0xFEFF) || (r >= 0x10800 && r <= 0x10FFF) || (r >= 0x1E800 && r <= 0x1EFFF)
}

// strength is a character's direction class for run splitting.
type strength uint8

const (
	neutral strength = iota // digits, punctuation, spaces, marks
	strongL                 // letters of left-to-right scripts
	strongR                 // letters of right-to-left scripts
)

func classOf(r rune) strength {
	if !unicode.IsLetter(r) {
		return neutral
	}
	if inRTLBlock(r) {
		return strongR
	}
	return strongL
}

// hasRTL reports whether s contains a character of an RTL block (the
// check of README "How the RTL output is checked": U+0590–08FF, FB1D–FDFF, FE70–FEFF).
func hasRTL(s string) bool {
	for _, r := range s {
		if inRTLBlock(r) {
			return true
		}
	}
	return false
}

// hasRTLLetter reports whether s has a letter of a right-to-left script
// (not only its punctuation, such as the Arabic comma).
func hasRTLLetter(s string) bool {
	for _, r := range s {
		if classOf(r) == strongR {
			return true
		}
	}
	return false
}

// latinPunct maps Arabic-script punctuation to the Latin marks it stands
// for, in text that has no Arabic-script letter.
var latinPunct = map[rune]rune{'،': ',', '؛': ';', '؟': '?', '۔': '.'}

func hasLatinLetter(s string) bool {
	for _, r := range s {
		if classOf(r) == strongL {
			return true
		}
	}
	return false
}

// foreignSpans marks, per rune, whether it belongs to a span of the
// direction opposite to the paragraph: a strong character of the other
// direction, or a neutral lying between two of them. Those runs are split
// off; in an RTL paragraph the rest (RTL letters and neutrals) gets w:rtl.
func foreignSpans(text []rune, paraRTL bool) []bool {
	foreign := strongL
	if !paraRTL {
		foreign = strongR
	}
	out := make([]bool, len(text))
	last := -1 // index of the last foreign strong character
	for i, r := range text {
		c := classOf(r)
		switch c {
		case foreign:
			if last >= 0 {
				for j := last + 1; j < i; j++ {
					out[j] = true
				}
			}
			out[i] = true
			last = i
		case neutral:
		default:
			last = -1
		}
	}
	return out
}

// numberExpr finds digit groups joined by separators (phone numbers, dates,
// ranges, part numbers) that UBA rule W2 scrambles after Arabic letters.
// A group is digits, or digits in parentheses ("(555)"), and groups with
// a thousands separator are one group.
var numberExpr = regexp.MustCompile(`\+?(?:\([0-9]+\)|[0-9]+(?:,[0-9]{3})*)(?:[ \-/.:–](?:\([0-9]+\)|[0-9]+(?:,[0-9]{3})*))+`)

// markPositions returns rune indices before which an LRM belongs in an RTL
// paragraph of the target script: before numbers with separators (Arabic
// script only, where W2 applies), and after closing punctuation that ends
// a Latin fragment inside RTL text.
func markPositions(text []rune, arabicScript bool) []int {
	var at []int
	prevIsMark := func(i int) bool { return i > 0 && text[i-1] == lrm }
	if arabicScript {
		s := string(text)
		// map byte offsets to rune indices
		idx := make([]int, len(s)+1)
		ri := 0
		for bi := range s {
			idx[bi] = ri
			ri++
		}
		idx[len(s)] = ri
		for _, m := range numberExpr.FindAllStringIndex(s, -1) {
			i := idx[m[0]]
			if !prevIsMark(i) && precededByRTL(text, i) {
				at = append(at, i)
			}
		}
	}
	// Latin fragment followed by closing punctuation and then RTL text.
	for i := 0; i < len(text); i++ {
		if classOf(text[i]) != strongL {
			continue
		}
		j := i + 1
		for j < len(text) && (isClosing(text[j]) || endSlash(text, j)) {
			j++
		}
		if j == i+1 || j >= len(text) || text[j] == lrm {
			continue
		}
		k := j
		for k < len(text) && classOf(text[k]) == neutral && text[k] != lrm {
			k++
		}
		if k < len(text) && classOf(text[k]) == strongR {
			at = append(at, j)
		}
	}
	return at
}

func precededByRTL(text []rune, i int) bool {
	for j := i - 1; j >= 0; j-- {
		switch classOf(text[j]) {
		case strongR:
			return true
		case strongL:
			return false
		}
	}
	return false
}

// endSlash: the slash at text[j] ends a word ("http://poi.apache.org/ "),
// so it belongs to the Latin before it. Without a mark the UBA gives it
// the RTL paragraph's direction and draws it on the far side of the
// address ("/http://poi.apache.org", seen on a rendered Urdu page). A
// slash between a Latin and an RTL word ("TCP/بروتوكول") stays neutral.
func endSlash(text []rune, j int) bool {
	return text[j] == '/' && (j+1 == len(text) || unicode.IsSpace(text[j+1]))
}

func isClosing(r rune) bool {
	switch r {
	case ')', ']', '}', '.', '!', '?', '%', '"', '\'', '»', '”':
		return true
	}
	return false
}

// nativeDigits maps 0–9 to the digits of a target, when it has them.
func nativeDigits(lang string) (zero rune, ok bool) {
	switch lang {
	case "ar":
		return '\u0660', true
	case "fa":
		return '\u06F0', true
	}
	return 0, false
}

// europeanDigit maps Arabic-Indic and Persian digits back to 0–9.
func europeanDigit(r rune) (rune, bool) {
	switch {
	case r >= '\u0660' && r <= '\u0669':
		return '0' + (r - '\u0660'), true
	case r >= '\u06F0' && r <= '\u06F9':
		return '0' + (r - '\u06F0'), true
	}
	return r, false
}

// locale is the w:lang value for a registry code.
func locale(code string) string {
	if l, ok := locales[code]; ok {
		return l
	}
	return code
}

var locales = map[string]string{
	"ar": "ar-SA", "he": "he-IL", "fa": "fa-IR", "ur": "ur-PK",
	"en": "en-US", "fr": "fr-FR", "de": "de-DE", "es": "es-ES", "it": "it-IT",
	"pt": "pt-PT", "nl": "nl-NL", "ru": "ru-RU", "pl": "pl-PL", "tr": "tr-TR",
	"sv": "sv-SE", "da": "da-DK", "fi": "fi-FI", "nb": "nb-NO", "nn": "nn-NO",
	"cs": "cs-CZ", "sk": "sk-SK", "hu": "hu-HU", "ro": "ro-RO", "el": "el-GR",
	"bg": "bg-BG", "uk": "uk-UA", "ja": "ja-JP", "ko": "ko-KR", "zh-Hans": "zh-CN",
	"zh-Hant": "zh-TW", "hi": "hi-IN", "th": "th-TH", "vi": "vi-VN", "id": "id-ID",
}

// Directional glyphs swapped for RTL output (and back for LTR output).
// Symbol-font code points are swapped only within their font.
var (
	mirrorGlyph = map[rune]rune{
		'►': '◄', '▶': '◀', '▸': '◂', '→': '←', '⇒': '⇐', '➢': '◄', '➤': '◄', '➔': '←', '⮞': '⮜', '☞': '☜',
	}
	mirrorGlyphBack = map[rune]rune{
		'◄': '►', '◀': '▶', '◂': '▸', '←': '→', '⇐': '⇒', '⮜': '⮞', '☜': '☞',
	}
	// Wingdings: D7/D8 3-D arrowheads, DF/E0 arrows, E7/E8 heavy arrows.
	wingdingsMirror = map[rune]rune{0xF0D8: 0xF0D7, 0xF0E0: 0xF0DF, 0xF0E8: 0xF0E7, 0xF0D7: 0xF0D8, 0xF0DF: 0xF0E0, 0xF0E7: 0xF0E8}
	// Symbol: AC/AE arrows, DC/DE double arrows.
	symbolMirror = map[rune]rune{0xF0AE: 0xF0AC, 0xF0AC: 0xF0AE, 0xF0DE: 0xF0DC, 0xF0DC: 0xF0DE}
	// Pointing glyphs with no opposite: reported.
	unmappableDirectional = map[rune]bool{'✓': true, '✔': true, '➙': true, '➛': true, '➜': true, '➝': true, '➞': true, '➟': true, '➠': true, 0xF0FC: true, 0xF0FB: true, 0xF0F0: true, 0xF0E2: true}
)

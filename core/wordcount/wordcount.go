// Package wordcount counts the words of a text the way the quota charges
// them.
//
// Words are the segments of Unicode word segmentation (UAX #29, via
// github.com/rivo/uniseg) that contain a letter or a digit; punctuation,
// spaces, symbols and emoji are not words. Scripts written without spaces
// need a policy, because UAX #29 does not find their word boundaries:
//
//   - Chinese and Japanese (Han, Hiragana, Katakana): every letter counts as
//     one word, as translation vendors count them. A Katakana run, which
//     UAX #29 keeps together, therefore counts per character too.
//   - Thai, Lao, Khmer and Myanmar: a run of these scripts (up to the next
//     space, punctuation or other script) counts as its grapheme clusters
//     divided by ClustersPerWord, rounded to the nearest whole number and at
//     least one. The constant was calibrated on the golden sentences in
//     testdata/wordcount, whose real word counts it meets within one word.
//     A dictionary segmenter could replace this estimate later.
//
// Korean, which uses spaces, counts like any alphabetic language.
package wordcount

import (
	"math"
	"unicode"

	"github.com/rivo/uniseg"
)

// ClustersPerWord is the average number of grapheme clusters in a word of
// Thai, Lao, Khmer or Myanmar text.
const ClustersPerWord = 3.5

// Count returns the number of words in text.
func Count(text string) int {
	words := 0
	run := 0 // grapheme clusters of the current Thai/Lao/Khmer/Myanmar run
	flush := func() {
		if run > 0 {
			words += max(1, int(math.Round(float64(run)/ClustersPerWord)))
			run = 0
		}
	}
	state := -1
	for len(text) > 0 {
		var seg string
		seg, text, state = uniseg.FirstWordInString(text, state)
		switch classify(seg) {
		case none:
			flush()
		case plain:
			flush()
			words++
		case perCharacter:
			flush()
			words += wordChars(seg)
		case clustered:
			run += uniseg.GraphemeClusterCount(seg)
		}
	}
	flush()
	return words
}

type kind int

const (
	none         kind = iota // no letter or digit
	plain                    // one ordinary word
	perCharacter             // contains Han, Hiragana or Katakana
	clustered                // letters of Thai, Lao, Khmer or Myanmar
)

var (
	cjk       = []*unicode.RangeTable{unicode.Han, unicode.Hiragana, unicode.Katakana}
	southeast = []*unicode.RangeTable{unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar}
)

func classify(seg string) kind {
	k := none
	for _, r := range seg {
		if r < 0x80 { // fast path: ASCII is never CJK or Southeast Asian
			if k == none && ('a' <= r|0x20 && r|0x20 <= 'z' || '0' <= r && r <= '9') {
				k = plain
			}
			continue
		}
		if r < 0x0E00 { // below Thai: no CJK or Southeast Asian letter
			if k == none && (unicode.IsLetter(r) || unicode.IsNumber(r)) {
				k = plain
			}
			continue
		}
		switch {
		case unicode.IsLetter(r) && unicode.IsOneOf(cjk, r):
			return perCharacter
		case unicode.IsLetter(r) && unicode.IsOneOf(southeast, r):
			k = clustered
		case k == none && (unicode.IsLetter(r) || unicode.IsNumber(r)):
			k = plain
		}
	}
	return k
}

// wordChars counts the letters and digits of a segment counted per character.
func wordChars(seg string) int {
	n := 0
	for _, r := range seg {
		if unicode.IsLetter(r) || unicode.IsNumber(r) {
			n++
		}
	}
	return n
}

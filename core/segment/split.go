package segment

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/rivo/uniseg"
)

// abbreviations end with a period but rarely end a sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "prof": true, "st": true, "vs": true,
	"e.g": true, "i.e": true, "cf": true, "fig": true, "figs": true, "no": true, "nos": true,
	"nr": true, "vol": true, "pp": true, "p": true, "approx": true, "jr": true, "sr": true,
	"art": true, "sec": true, "ch": true, "ref": true, "eq": true, "tab": true, "ca": true,
	"z.b": true, "bzw": true, "usw": true, "ggf": true, "vgl": true, "mme": true, "mlle": true,
	"gen": true, "col": true, "lt": true, "capt": true, "sgt": true, "rev": true, "hon": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true, "op": true, "cit": true,
}

// terminators are the sentence-ending marks of UAX #29 (STerm and ATerm)
// in common use; text without any of them is one sentence.
const terminators = ".!?;\u2026\u3002\uFF01\uFF1F\uFF0E\u061F\u06D4\u0964\u0965\u203C\u203D\u2047\u2048\u2049\u00A1\u00BF\u037E\u0589\u1362\u1367\u1368\u166E\u1803\u1809\uFE52\uFE56\uFE57"

// SplitSentences cuts tagged text into sentences (Unicode sentence
// boundaries, minus abbreviations and initials). A cut is made only where
// no paired code is open, so every piece is balanced; isolated codes stay
// with the word they precede, trailing spaces with the sentence they end.
// Concatenating the pieces gives back the input.
func SplitSentences(src string) []string {
	if !strings.ContainsAny(src, terminators) {
		return []string{src} // no sentence can end inside
	}
	toks := tagged.Tokenize(src)
	var plain strings.Builder
	for _, t := range toks {
		if t.Kind == tagged.Text {
			plain.WriteString(t.Text)
		}
	}
	text := plain.String()
	cuts := sentenceCuts(text)
	if len(cuts) == 0 {
		return []string{src}
	}
	var out []string
	var cur []tagged.Token
	depth, off, ci := 0, 0, 0
	flush := func() {
		if len(cur) > 0 {
			out = append(out, tagged.Render(cur))
			cur = nil
		}
	}
	for _, t := range toks {
		switch t.Kind {
		case tagged.Open:
			depth++
		case tagged.Close:
			depth--
		}
		if t.Kind != tagged.Text {
			cur = append(cur, t)
			continue
		}
		s := t.Text
		for ci < len(cuts) && cuts[ci] <= off {
			ci++
		}
		for ci < len(cuts) && cuts[ci] <= off+len(s) {
			k := cuts[ci] - off
			ci++
			if depth != 0 {
				continue
			}
			cur = append(cur, tagged.Token{Kind: tagged.Text, Text: s[:k]})
			flush()
			off += k
			s = s[k:]
		}
		if s != "" {
			cur = append(cur, tagged.Token{Kind: tagged.Text, Text: s})
		}
		off += len(s)
	}
	flush()
	if len(out) == 0 {
		return []string{src}
	}
	return out
}

// sentenceCuts are the byte offsets in plain text where a sentence ends,
// excluding the end of the text.
func sentenceCuts(text string) []int {
	var cuts []int
	state := -1
	off := 0
	rest := text
	for len(rest) > 0 {
		var s string
		s, rest, state = uniseg.FirstSentenceInString(rest, state)
		off += len(s)
		if len(rest) == 0 {
			break
		}
		if strings.TrimSpace(rest) == "" || isAbbreviation(s) || startsLower(rest) {
			continue
		}
		cuts = append(cuts, off)
	}
	return cuts
}

// isAbbreviation reports whether a sentence candidate ends in a known
// abbreviation or an initial ("J.").
func isAbbreviation(s string) bool {
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if !strings.HasSuffix(s, ".") {
		return false
	}
	s = strings.TrimSuffix(s, ".")
	i := strings.LastIndexFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == '(' || r == '"' })
	w := s[i+1:]
	if i >= 0 {
		_, n := utf8.DecodeRuneInString(s[i:])
		w = s[i+n:]
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	}
	return abbreviations[strings.ToLower(w)]
}

func startsLower(s string) bool {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLower(r)
}

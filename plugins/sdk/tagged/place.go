package tagged

// Where Repair puts a code back: word boundaries of the target text and
// offsets in its tokens.

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"
)

// wordAround is the word at or after offset p (the last word if none),
// so a span whose text had words does not end up empty.
func wordAround(s string, p int) (int, int) {
	p = min(max(p, 0), len(s))
	for p > 0 && !utf8.RuneStart(s[min(p, len(s)-1)]) {
		p--
	}
	starts := wordStarts(s)
	k := len(starts) - 1
	for i, st := range starts {
		if st >= p {
			k = i
			break
		}
		if i+1 < len(starts) && starts[i+1] > p {
			k = i // p falls inside word i
			break
		}
	}
	a := starts[k]
	b := wordOffset(s, starts, k+1, false)
	return a, b
}

// wordStarts are the offsets where space-separated words begin.
func wordStarts(s string) []int {
	var out []int
	prevSpace := true
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if !sp && prevSpace {
			out = append(out, i)
		}
		prevSpace = sp
	}
	return out
}

// wordIndex is the number of words that start before offset p, counting a
// word that p cuts into as started only if p is past its first byte.
func wordIndex(starts []int, p int) int {
	n := 0
	for _, s := range starts {
		if s < p {
			n++
		}
	}
	return n
}

// wordOffset is where word k starts (start=true) or where word k-1 ends.
func wordOffset(s string, starts []int, k int, start bool) int {
	if start {
		if k >= len(starts) {
			return len(s)
		}
		return starts[k]
	}
	if k <= 0 {
		return 0
	}
	if k > len(starts) {
		k = len(starts)
	}
	e := starts[k-1]
	for e < len(s) {
		r, n := utf8.DecodeRuneInString(s[e:])
		if unicode.IsSpace(r) {
			break
		}
		e += n
	}
	return e
}

// sliceText is the source text between plain offsets a and b, as tagged text.
func sliceText(toks []Token, a, b int) string {
	var sb strings.Builder
	off := 0
	for _, t := range toks {
		if t.Kind != Text {
			continue
		}
		s, e := max(a, off), min(b, off+len(t.Text))
		if s < e {
			sb.WriteString(Escape(t.Text[s-off : e-off]))
		}
		off += len(t.Text)
	}
	return sb.String()
}

// placeOffsets are the text offsets of isolated codes: a tab or a break
// separates words even where no space does.
func placeOffsets(toks []Token) map[int]bool {
	m := map[int]bool{}
	off := 0
	for _, t := range toks {
		switch t.Kind {
		case Text:
			off += len(t.Text)
		case Place:
			m[off] = true
		}
	}
	return m
}

func plainOf(toks []Token) string {
	var sb strings.Builder
	for _, t := range toks {
		if t.Kind == Text {
			sb.WriteString(t.Text)
		}
	}
	return sb.String()
}

// scale maps offset p of a text of length from onto one of length to,
// on a rune boundary of nothing in particular (callers snap it).
func scale(p, from, to int) int {
	if from == 0 {
		return 0
	}
	return int(math.Round(float64(p) / float64(from) * float64(to)))
}

// snapWord moves p to a rune boundary and, within a short reach, to the
// start (left) or end (right) of the word it falls in.
func snapWord(s string, p int, left bool, stops map[int]bool) int {
	p = min(max(p, 0), len(s))
	for p > 0 && p < len(s) && !utf8.RuneStart(s[p]) {
		p--
	}
	const reach = 40
	q := p
	if left {
		for q > 0 && p-q < reach {
			r, n := utf8.DecodeLastRuneInString(s[:q])
			if !isWordRune(r) || stops[q] {
				return q
			}
			q -= n
		}
		if q == 0 {
			return 0
		}
		return p
	}
	for q < len(s) && q-p < reach {
		r, n := utf8.DecodeRuneInString(s[q:])
		if !isWordRune(r) || stops[q] {
			return q
		}
		q += n
	}
	if q == len(s) {
		return q
	}
	return p
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// beforeText is the token index at which an insertion lands just before
// the text at plain offset p, splitting a text token if needed.
func beforeText(toks *[]Token, p int) int {
	off := 0
	for i, t := range *toks {
		if t.Kind != Text {
			continue
		}
		if p == off {
			return i
		}
		if p > off && p < off+len(t.Text) {
			splitTok(toks, i, p-off)
			return i + 1
		}
		off += len(t.Text)
	}
	return len(*toks)
}

// afterText is the token index just after the text ending at plain offset p.
func afterText(toks *[]Token, p int) int {
	off := 0
	for i, t := range *toks {
		if t.Kind != Text {
			continue
		}
		end := off + len(t.Text)
		if p == end {
			return i + 1
		}
		if p > off && p < end {
			splitTok(toks, i, p-off)
			return i + 1
		}
		off = end
	}
	return len(*toks)
}

func splitTok(toks *[]Token, i, k int) {
	t := (*toks)[i]
	*toks = insert(*toks, i+1, Token{Kind: Text, Text: t.Text[k:]})
	(*toks)[i].Text = t.Text[:k]
}

func insert(toks []Token, i int, t Token) []Token {
	toks = append(toks, Token{})
	copy(toks[i+1:], toks[i:])
	toks[i] = t
	return toks
}

// balance adjusts [ia, ib) so that it opens and closes the same codes:
// it stops before a close of a code opened outside, and extends past the
// closes of codes opened inside.
func balance(toks []Token, ia, ib int) (int, int) {
	depth := 0
	for i := ia; i < ib; i++ {
		switch toks[i].Kind {
		case Open:
			depth++
		case Close:
			if depth == 0 {
				return ia, i
			}
			depth--
		}
	}
	for i := ib; depth > 0 && i < len(toks); i++ {
		switch toks[i].Kind {
		case Open:
			depth++
		case Close:
			depth--
		}
		ib = i + 1
	}
	return ia, ib
}

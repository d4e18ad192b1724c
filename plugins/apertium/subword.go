package main

import (
	"math"
	"sort"
	"unicode"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Apertium carries inline formatting as "word-bound blanks": a span that
// began or ended inside a word ("ita<g>li</g>c", one letter in another
// colour or a struck-through syllable) comes back around the whole word
// ("<g>italic</g>"), and the formatting around it is gone. fitSubwordSpans
// puts such a boundary back inside the translated word, at the same
// proportion of its length, so the word is formatted in parts as it was.

// edge is one span boundary: code id and whether it is the closing tag.
type edge struct {
	id    int
	close bool
}

// subwordEdges maps each span boundary that falls inside a word of the
// source to its relative position in that word (0 < f < 1).
func subwordEdges(source string) map[edge]float64 {
	text, at := layout(tagged.Tokenize(source))
	out := map[edge]float64{}
	for e, p := range at {
		if ws, we, ok := wordAcross(text, p); ok {
			out[e] = float64(p-ws) / float64(we-ws)
		}
	}
	return out
}

// layout is the plain text of tokens (as runes) and the rune offset of
// every span boundary.
func layout(toks []tagged.Token) ([]rune, map[edge]int) {
	var text []rune
	at := map[edge]int{}
	var stack []int
	for _, t := range toks {
		switch t.Kind {
		case tagged.Text:
			text = append(text, []rune(t.Text)...)
		case tagged.Open:
			at[edge{id: t.ID}] = len(text)
			stack = append(stack, t.ID)
		case tagged.Close:
			if n := len(stack); n > 0 {
				at[edge{id: stack[n-1], close: true}] = len(text)
				stack = stack[:n-1]
			}
		}
	}
	return text, at
}

// wordAcross is the word that offset p cuts into, letters on both sides.
func wordAcross(text []rune, p int) (int, int, bool) {
	if p <= 0 || p >= len(text) || !isWord(text[p-1]) || !isWord(text[p]) {
		return 0, 0, false
	}
	ws, we := p, p
	for ws > 0 && isWord(text[ws-1]) {
		ws--
	}
	for we < len(text) && isWord(text[we]) {
		we++
	}
	return ws, we, true
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) }

// fitSubwordSpans moves the span boundaries that were inside a word in the
// source, and sit at the edge of a word in the translation, back inside
// that word, and takes back punctuation (regainPunctuation). Should the
// result not nest as the spans did, the translation is kept as it came.
func fitSubwordSpans(source string, toks []tagged.Token) []tagged.Token {
	want := subwordEdges(source)
	text, at := layout(toks)
	moved := false
	pos := map[edge]int{}
	for e, p := range at {
		pos[e] = p
		f, ok := want[e]
		if !ok {
			continue
		}
		if _, _, inside := wordAcross(text, p); inside {
			continue
		}
		// the word the span begins with, or the word it ends with
		ws, we := p, p
		if e.close {
			for ws > 0 && isWord(text[ws-1]) {
				ws--
			}
		} else {
			for we < len(text) && isWord(text[we]) {
				we++
			}
		}
		if we-ws < 2 {
			continue
		}
		q := ws + int(math.Round(f*float64(we-ws)))
		pos[e] = min(max(q, ws+1), we-1)
		moved = true
	}
	if regainPunctuation(source, text, at, pos) {
		moved = true
	}
	if !moved {
		return toks
	}
	return rebuild(toks, text, pos, at)
}

// regainPunctuation takes back into a span the punctuation mark or symbol
// it began or ended with in the source that Apertium left just outside it:
// a word-bound blank holds words only, so "<g>M☉</g>" comes back as
// "<g>M</g>☉". Reports a move.
func regainPunctuation(source string, text []rune, at, pos map[edge]int) bool {
	st, sat := layout(tagged.Tokenize(source))
	moved := false
	for e, p := range at {
		a, b := sat[edge{id: e.id}], sat[edge{id: e.id, close: true}]
		if b <= a || pos[e] != p {
			continue
		}
		if e.close {
			if r := st[b-1]; symbol(r) && p < len(text) && text[p] == r && (p == 0 || text[p-1] != r) {
				pos[e], moved = p+1, true
			}
		} else if r := st[a]; symbol(r) && p > 0 && text[p-1] == r && (p == len(text) || text[p] != r) {
			pos[e], moved = p-1, true
		}
	}
	return moved
}

func symbol(r rune) bool { return !isWord(r) && !unicode.IsSpace(r) }

// rebuild lays the text out again with the span boundaries at pos; tags at
// one offset keep their order. It returns toks unchanged when the spans no
// longer nest or a span became empty.
func rebuild(toks []tagged.Token, text []rune, pos, old map[edge]int) []tagged.Token {
	type tag struct {
		tok  tagged.Token
		e    edge
		p    int
		seq  int
		span bool
	}
	var tags []tag
	var stack []int
	off := 0
	for i, t := range toks {
		switch t.Kind {
		case tagged.Text:
			off += len([]rune(t.Text))
		case tagged.Open:
			e := edge{id: t.ID}
			tags = append(tags, tag{tok: t, e: e, p: pos[e], seq: i, span: true})
			stack = append(stack, t.ID)
		case tagged.Close:
			if n := len(stack); n > 0 {
				e := edge{id: stack[n-1], close: true}
				tags = append(tags, tag{tok: t, e: e, p: pos[e], seq: i, span: true})
				stack = stack[:n-1]
			}
		case tagged.Place:
			tags = append(tags, tag{tok: t, p: off, seq: i})
		}
	}
	sort.SliceStable(tags, func(i, j int) bool {
		if tags[i].p != tags[j].p {
			return tags[i].p < tags[j].p
		}
		return tags[i].seq < tags[j].seq
	})
	// the spans must nest as before, and none may end up empty
	var open []int
	for _, t := range tags {
		if !t.span {
			continue
		}
		if !t.e.close {
			open = append(open, t.e.id)
			continue
		}
		n := len(open)
		if n == 0 || open[n-1] != t.e.id {
			return toks
		}
		open = open[:n-1]
		if pos[t.e] <= pos[edge{id: t.e.id}] && old[t.e] > old[edge{id: t.e.id}] {
			return toks
		}
	}
	var out []tagged.Token
	last := 0
	flush := func(p int) {
		if p > last {
			out = append(out, tagged.Token{Kind: tagged.Text, Text: string(text[last:p])})
			last = p
		}
	}
	for _, t := range tags {
		flush(t.p)
		out = append(out, t.tok)
	}
	flush(len(text))
	return out
}

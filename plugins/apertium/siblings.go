package main

import (
	"math"
	"slices"
	"sort"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// A word-bound blank wraps whole words, so spans that formatted different
// letters of one word ("ita<g 1>l</g><g 2>i</g>c") come back from
// Apertium both around the whole word, one inside the other. splitSiblings
// cuts such a word between spans that did not nest in the source, in
// source order, where the first of them ended in the source word (by
// proportion), so fitSubwordSpans can then put each back on its letters.
func splitSiblings(source string, toks []tagged.Token) []tagged.Token {
	inside, order := nesting(tagged.Tokenize(source))
	edges := subwordEdges(source)
	var out []tagged.Token
	for i := 0; i < len(toks); i++ {
		ids, text, n := wrappedRun(toks[i:])
		if len(ids) < 2 || !siblings(ids, inside) || len([]rune(text)) < len(ids) {
			out = append(out, toks[i])
			continue
		}
		sort.Slice(ids, func(a, b int) bool { return order[ids[a]] < order[ids[b]] })
		r := []rune(text)
		last := 0
		for k, id := range ids {
			end := len(r)
			if k < len(ids)-1 {
				f, ok := edges[edge{id: id, close: true}]
				if !ok {
					f = float64(k+1) / float64(len(ids))
				}
				end = int(math.Round(f * float64(len(r))))
				end = min(max(end, last+1), len(r)-(len(ids)-1-k))
			}
			out = append(out,
				tagged.Token{Kind: tagged.Open, ID: id},
				tagged.Token{Kind: tagged.Text, Text: string(r[last:end])},
				tagged.Token{Kind: tagged.Close, ID: id})
			last = end
		}
		i += n - 1
	}
	return out
}

// wrappedRun reads opens, one text and the matching closes at the start of
// toks: the codes, the text and the number of tokens, or no codes.
func wrappedRun(toks []tagged.Token) ([]int, string, int) {
	var ids []int
	i := 0
	for i < len(toks) && toks[i].Kind == tagged.Open {
		ids = append(ids, toks[i].ID)
		i++
	}
	if len(ids) == 0 || i >= len(toks) || toks[i].Kind != tagged.Text {
		return nil, "", 0
	}
	text := toks[i].Text
	i++
	for k := len(ids) - 1; k >= 0; k-- {
		if i >= len(toks) || toks[i].Kind != tagged.Close || toks[i].ID != ids[k] {
			return nil, "", 0
		}
		i++
	}
	return ids, text, i
}

// nesting lists, for each paired code of the source, the codes it is
// inside, and the order the codes open in.
func nesting(toks []tagged.Token) (map[int][]int, map[int]int) {
	inside := map[int][]int{}
	order := map[int]int{}
	var stack []int
	for _, t := range toks {
		switch t.Kind {
		case tagged.Open:
			inside[t.ID] = slices.Clone(stack)
			order[t.ID] = len(order)
			stack = append(stack, t.ID)
		case tagged.Close:
			if n := len(stack); n > 0 {
				stack = stack[:n-1]
			}
		}
	}
	return inside, order
}

// siblings reports that no two of ids nested in the source.
func siblings(ids []int, inside map[int][]int) bool {
	for _, a := range ids {
		if _, known := inside[a]; !known {
			return false
		}
		for _, b := range ids {
			if slices.Contains(inside[a], b) {
				return false
			}
		}
	}
	return true
}

package protect

import "github.com/dragoman-translate/dragoman/plugins/sdk/tagged"

// Hide is the core's one placeholder mechanism: it replaces pieces of the
// text parts of tagged text (never across an inline code) by isolated
// codes <x id="N"/>, numbered after the highest code id the text has so
// they cannot clash with the document's own codes. find reports a text
// part's pieces, left to right and not overlapping, and bounds gives a
// piece's byte range in that text; placed is told each piece's code id.
// The text comes back unchanged when nothing was hidden. Package protect
// hides technical spans with it, package glossary a glossary's terms.
func Hide[P any](src string, find func(text string) []P, bounds func(P) (from, to int), placed func(id int, piece P, text string)) string {
	toks := tagged.Tokenize(src)
	next := 0
	for _, t := range toks {
		if t.Kind != tagged.Text && t.ID >= next {
			next = t.ID + 1
		}
	}
	hidden := false
	var out []tagged.Token
	for _, t := range toks {
		if t.Kind != tagged.Text {
			out = append(out, t)
			continue
		}
		text, pos := t.Text, 0
		for _, p := range find(text) {
			from, to := bounds(p)
			if from > pos {
				out = append(out, tagged.Token{Kind: tagged.Text, Text: text[pos:from]})
			}
			placed(next, p, text)
			out = append(out, tagged.Token{Kind: tagged.Place, ID: next})
			next++
			hidden = true
			pos = to
		}
		if pos < len(text) {
			out = append(out, tagged.Token{Kind: tagged.Text, Text: text[pos:]})
		}
	}
	if !hidden {
		return src
	}
	return tagged.Render(out)
}

// Reveal turns the codes Hide placed back into text: text(i) for the code
// ids[i]. A code the engine repeated becomes the text each time; one it
// lost is appended, after a space, to the end of the segment, so nothing
// hidden is missing from the output; lost are the indexes into ids of
// those, in order.
func Reveal(src string, ids []int, text func(i int) string) (out string, lost []int) {
	if len(ids) == 0 {
		return src, nil
	}
	byID := make(map[int]int, len(ids))
	for i, id := range ids {
		byID[id] = i
	}
	seen := make([]bool, len(ids))
	var toks []tagged.Token
	for _, t := range tagged.Tokenize(src) {
		if i, ok := byID[t.ID]; ok && t.Kind == tagged.Place {
			seen[i] = true
			toks = append(toks, tagged.Token{Kind: tagged.Text, Text: text(i)})
			continue
		}
		toks = append(toks, t)
	}
	for i := range ids {
		if !seen[i] {
			lost = append(lost, i)
			toks = append(toks, tagged.Token{Kind: tagged.Text, Text: " " + text(i)})
		}
	}
	return tagged.Render(toks), lost
}

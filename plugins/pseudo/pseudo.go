package main

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// item is a word, an isolated code, or a paired code with what it wraps.
type item struct {
	word     string
	place    int // <x id>, when kind is tagged.Place
	open     int // <g id>, when kind is tagged.Open
	kind     tagged.TokenKind
	children []item
	// Whether white space stood before and after it in the source: an
	// isolated code kept at a level's edge keeps its gap to the words
	// (a glossary term's placeholder after "in real") or its lack of one
	// (a TOC entry's tab after the heading).
	spaceBefore, spaceAfter bool
}

// pseudo rewrites one tagged segment: the words of every level are
// reversed (a <g> span moves as a whole with the words it wraps, an <x/>
// stays between the same two words), each word is re-lettered in the
// target alphabet and padded by about a third, and trailing sentence
// punctuation stays at the end.
func pseudo(seg string, a alphabet) string {
	if strings.TrimSpace(tagged.Plain(seg)) == "" {
		return seg // nothing to write; codes stay as they are
	}
	toks := tagged.Tokenize(seg)
	lead, trail := outerSpace(tagged.Plain(seg))
	// White space beside an isolated code at the segment's edge is the
	// code's gap to the words (render keeps it), not the segment's own.
	if toks[0].Kind == tagged.Place {
		lead = ""
	}
	if toks[len(toks)-1].Kind == tagged.Place {
		trail = ""
	}
	items, _ := build(toks, 0)
	items, punct := splitFinalPunct(items)
	reverse(items)
	var w tagged.Builder
	w.Text(lead)
	render(&w, items, a)
	w.Text(punct + trail)
	return w.String()
}

// build reads tokens up to the matching close of the current level.
func build(toks []tagged.Token, i int) ([]item, int) {
	var items []item
	spaced := false // white space since the last item
	add := func(it item) {
		it.spaceBefore, spaced = spaced, false
		items = append(items, it)
	}
	for i < len(toks) {
		t := toks[i]
		switch t.Kind {
		case tagged.Text:
			if strings.TrimLeftFunc(t.Text, unicode.IsSpace) != t.Text {
				spaced = true
				if len(items) > 0 {
					items[len(items)-1].spaceAfter = true
				}
			}
			for _, f := range strings.Fields(t.Text) {
				add(item{kind: tagged.Text, word: f})
			}
			if strings.TrimRightFunc(t.Text, unicode.IsSpace) != t.Text {
				spaced = true
			}
		case tagged.Place:
			add(item{kind: tagged.Place, place: t.ID})
		case tagged.Open:
			children, next := build(toks, i+1)
			add(item{kind: tagged.Open, open: t.ID, children: children})
			i = next
		case tagged.Close:
			return items, i
		}
		i++
	}
	return items, i
}

// edges returns the middle of one level: the items before lo and from hi
// on are the isolated codes at its edges.
func edges(items []item) (lo, hi int) {
	lo, hi = 0, len(items)
	for lo < hi && items[lo].kind == tagged.Place {
		lo++
	}
	for hi > lo && items[hi-1].kind == tagged.Place {
		hi--
	}
	return lo, hi
}

// reverse reverses the words of every level. Isolated codes at a level's
// edges stay there, as a real engine keeps them: a TOC entry's tab and page
// number (or a list's leading tab) moved to the other end would put the
// page number beside the heading instead of at the tab stop.
func reverse(items []item) {
	lo, hi := edges(items)
	for i, j := lo, hi-1; i < j; i, j = i+1, j-1 {
		items[i], items[j] = items[j], items[i]
	}
	for i := range items {
		reverse(items[i].children)
	}
}

var finalPunct = regexp.MustCompile(`[.!?;:,…。？！]+$`)

// splitFinalPunct takes the sentence punctuation off the last top-level word.
func splitFinalPunct(items []item) ([]item, string) {
	n := len(items)
	if n < 2 || items[n-1].kind != tagged.Text {
		return items, ""
	}
	w := items[n-1].word
	p := finalPunct.FindString(w)
	if p == "" || p == w {
		return items, ""
	}
	items[n-1].word = strings.TrimSuffix(w, p)
	return items, p
}

func render(w *tagged.Builder, items []item, a alphabet) {
	lo, hi := edges(items)
	for i, it := range items {
		switch {
		case i > lo && i < hi:
			w.Text(" ")
		case i == lo && i > 0 && items[i-1].spaceAfter, i == hi && i > 0 && it.spaceBefore:
			w.Text(" ") // an edge code keeps the gap it had to the words
		}
		switch it.kind {
		case tagged.Text:
			w.Text(letter(it.word, a))
		case tagged.Place:
			w.Place(it.place)
		case tagged.Open:
			w.Open(it.open)
			render(w, it.children, a)
			w.Close()
		}
	}
}

var keepAsIs = regexp.MustCompile(`(?i)^(https?://|www\.)|@.+\.|\d`)

// letter re-letters one word and pads it by about 30 %. URLs, e-mail
// addresses and anything with a digit are kept as they are.
func letter(word string, a alphabet) string {
	if keepAsIs.MatchString(word) {
		return word
	}
	var b strings.Builder
	letters := 0
	for _, r := range word {
		if unicode.IsLetter(r) {
			letters++
		}
	}
	// Every third letter is doubled (and one more for short words), which
	// grows text by about a third, as translations into longer languages do.
	n := 0
	for _, r := range word {
		switch {
		case unicode.IsMark(r):
			// Combining marks of the source script do not fit the target's.
		case unicode.IsLetter(r):
			m := mapRune(r, a)
			b.WriteRune(m)
			n++
			if n%3 == 0 || (letters < 3 && n == letters) {
				b.WriteRune(m)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func mapRune(r rune, a alphabet) rune {
	upper := unicode.IsUpper(r)
	var i int
	switch {
	case r >= 'a' && r <= 'z':
		i = int(r - 'a')
	case r >= 'A' && r <= 'Z':
		i = int(r - 'A')
	default:
		i = int(unicode.ToLower(r)) % 26
	}
	if upper && a.upper != nil {
		return a.upper[i]
	}
	return a.lower[i]
}

// outerSpace is the leading and trailing whitespace of the plain text,
// which the rewrite keeps.
func outerSpace(plain string) (string, string) {
	if strings.TrimSpace(plain) == "" {
		return "", ""
	}
	lead := plain[:len(plain)-len(strings.TrimLeftFunc(plain, unicode.IsSpace))]
	trail := plain[len(strings.TrimRightFunc(plain, unicode.IsSpace)):]
	return lead, trail
}

// Package terms finds a glossary's source terms in plain text: the one
// matcher host and plugins share. The host's core/glossary hides the terms
// it finds behind codes before translation; an engine that applies a
// glossary itself (with vendor markup) marks the same terms, so what an
// engine applies is what the host counts. Like every leaf package of the
// SDK it imports nothing but the standard library.
//
// Matching is case-sensitive on word boundaries, the longest term first at
// each place, except that a term written in lower case also matches with a
// capital first letter (at the start of a sentence), and then its target
// gets a capital first letter too; an entry of its own for the capitalised
// form wins over that. A term never matches inside a word, except in
// scripts written without spaces (Chinese, Japanese, Thai, …).
package terms

import (
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Entry is one term of a glossary and its translation.
type Entry struct {
	Source string `json:"source"`
	Target string `json:"target"`
}

// Match is one term found in plain text: text[From:To] is the source term
// as written there, Target what it becomes, Entry the source term of the
// glossary entry it matched (different from the text for a capitalised
// variant).
type Match struct {
	From, To int
	Target   string
	Entry    string
}

// Matcher finds a glossary's source terms.
type Matcher struct {
	terms   map[string]term // by the text matched
	byFirst map[rune][]int  // byte lengths of the terms starting with a rune, longest first
}

type term struct {
	tgt   string // as inserted
	entry string // the entry's source term
	last  rune
}

// New prepares entries for matching.
func New(entries []Entry) *Matcher {
	m := &Matcher{terms: make(map[string]term, 2*len(entries)), byFirst: map[rune][]int{}}
	exact := make(map[string]bool, len(entries))
	for _, e := range entries {
		exact[e.Source] = true
	}
	add := func(src, tgt, entry string) {
		if _, dup := m.terms[src]; dup || src == "" {
			return
		}
		first, _ := utf8.DecodeRuneInString(src)
		last, _ := utf8.DecodeLastRuneInString(src)
		m.terms[src] = term{tgt: tgt, entry: entry, last: last}
		if !slices.Contains(m.byFirst[first], len(src)) {
			m.byFirst[first] = append(m.byFirst[first], len(src))
		}
	}
	for _, e := range entries {
		add(e.Source, e.Target, e.Source)
	}
	for _, e := range entries {
		if c := Capitalise(e.Source); c != e.Source && !exact[c] {
			add(c, Capitalise(e.Target), e.Source)
		}
	}
	for _, ls := range m.byFirst {
		sort.Sort(sort.Reverse(sort.IntSlice(ls)))
	}
	return m
}

// Empty reports whether m has no term to find.
func (m *Matcher) Empty() bool { return m == nil || len(m.terms) == 0 }

// Find scans plain text left to right; at each place a term may start, the
// longest that ends on a word boundary is taken and the scan goes on after it.
func (m *Matcher) Find(text string) []Match {
	if m.Empty() {
		return nil
	}
	var out []Match
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if lens := m.byFirst[r]; len(lens) > 0 && edgeOK(text, i, r, true) {
			matched := false
			for _, n := range lens {
				if i+n > len(text) {
					continue
				}
				if c, ok := m.terms[text[i:i+n]]; ok && edgeOK(text, i+n, c.last, false) {
					out = append(out, Match{From: i, To: i + n, Target: c.tgt, Entry: c.entry})
					i += n
					matched = true
					break
				}
			}
			if matched {
				continue
			}
		}
		i += size
	}
	return out
}

// Exact reports the match of the whole of s, when s is exactly a source
// term or the capitalised variant of one.
func (m *Matcher) Exact(s string) (Match, bool) {
	if m.Empty() || s == "" {
		return Match{}, false
	}
	if c, ok := m.terms[s]; ok {
		return Match{From: 0, To: len(s), Target: c.tgt, Entry: c.entry}, true
	}
	return Match{}, false
}

// WithCapitalised is entries followed by the capitalised variants New also
// matches: for a source term starting with a lower-case letter whose
// capitalised form has no entry of its own, that form with its target
// capitalised (a term opening a sentence). A vendor glossary that matches
// case-sensitively (Google's) then applies what the host expects.
func WithCapitalised(entries []Entry) []Entry {
	out := slices.Clone(entries)
	have := make(map[string]bool, len(entries))
	for _, e := range entries {
		have[e.Source] = true
	}
	for _, e := range entries {
		if c := Capitalise(e.Source); !have[c] {
			have[c] = true
			out = append(out, Entry{Source: c, Target: Capitalise(e.Target)})
		}
	}
	return out
}

// Capitalise upper-cases the first letter of s when it is a lower-case one.
func Capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToTitle(r)) + s[n:]
}

// edgeOK says whether a term edge at byte at is a word boundary: the term's
// edge rune and its neighbour are not both word characters. In scripts
// written without spaces between words (Chinese, Japanese, Thai, Lao,
// Khmer, Myanmar) words are not delimited, so a term edge next to or in
// such a script is always accepted.
func edgeOK(text string, at int, edge rune, left bool) bool {
	var nb rune
	if left {
		if at == 0 {
			return true
		}
		nb, _ = utf8.DecodeLastRuneInString(text[:at])
	} else {
		if at >= len(text) {
			return true
		}
		nb, _ = utf8.DecodeRuneInString(text[at:])
	}
	if !isWord(nb) || !isWord(edge) {
		return true
	}
	return unspaced(nb) || unspaced(edge)
}

func isWord(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_'
}

// unspaced reports a letter of a script written without spaces.
func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai,
		unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan) ||
		r == 'ー' || r == '々' // prolonged sound mark, iteration mark (Common script)
}

package glossary

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Placed is one occurrence of a source term hidden behind the isolated
// code <x id="ID"/>, which becomes Target after translation.
type Placed struct {
	ID     int
	Source string // the glossary entry's source term
	Target string // the text the code stands for in the translation
}

// Matcher finds a glossary's source terms in tagged text.
type Matcher struct {
	terms   map[string]term // by the text matched
	byFirst map[rune][]int  // the byte lengths of the terms starting with a rune, longest first
}

type term struct {
	src, tgt string // as matched and as inserted
	entry    string // the entry's source term, for reports
	last     rune
}

// NewMatcher prepares entries for matching. Matching is case-sensitive,
// except that a term written in lower case also matches with a capital
// first letter (at the start of a sentence), and then its target gets a
// capital first letter too; an entry of its own for the capitalised form
// wins over that.
func NewMatcher(entries []Entry) *Matcher {
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
		m.terms[src] = term{src: src, tgt: tgt, entry: entry, last: last}
		if !slices.Contains(m.byFirst[first], len(src)) {
			m.byFirst[first] = append(m.byFirst[first], len(src))
		}
	}
	for _, e := range entries {
		add(e.Source, e.Target, e.Source)
	}
	for _, e := range entries {
		if c := capitalise(e.Source); c != e.Source && !exact[c] {
			add(c, capitalise(e.Target), e.Source)
		}
	}
	for _, ls := range m.byFirst {
		sort.Sort(sort.Reverse(sort.IntSlice(ls)))
	}
	return m
}

// capitalise upper-cases the first letter of s when it is a lower-case one.
func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToTitle(r)) + s[n:]
}

// Protect replaces every occurrence of a source term in the text parts of
// tagged text (never across an inline code) by an isolated code numbered
// after the highest code id the text has. At each place the longest term
// that fits on word boundaries wins.
func (m *Matcher) Protect(tagged string) (string, []Placed) {
	if m == nil || len(m.terms) == 0 {
		return tagged, nil
	}
	var placed []Placed
	out := protect.Hide(tagged, m.find, func(f found) (int, int) { return f.from, f.from + len(f.t.src) },
		func(id int, f found, _ string) {
			placed = append(placed, Placed{ID: id, Source: f.t.entry, Target: f.t.tgt})
		})
	return out, placed
}

type found struct {
	from int
	t    term
}

// find scans plain text left to right; at each position where a term may
// start, the longest candidate that ends on a boundary is taken and the
// scan continues after it.
func (m *Matcher) find(text string) []found {
	var out []found
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if lens := m.byFirst[r]; len(lens) > 0 && edgeOK(text, i, r, true) {
			matched := false
			for _, n := range lens {
				if i+n > len(text) {
					continue
				}
				if c, ok := m.terms[text[i:i+n]]; ok && edgeOK(text, i+n, c.last, false) {
					out = append(out, found{from: i, t: c})
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

// Restore turns the codes of placed terms into their target terms. A code
// the engine repeated becomes the term each time; one it lost is appended
// to the end of the segment, so no term is missing from the output; lost
// lists those.
func Restore(tagged string, placed []Placed) (out string, lost []Placed) {
	ids := make([]int, len(placed))
	for i, p := range placed {
		ids[i] = p.ID
	}
	out, gone := protect.Reveal(tagged, ids, func(i int) string { return placed[i].Target })
	for _, i := range gone {
		lost = append(lost, placed[i])
	}
	return out, lost
}

// Tally counts what enforcement did over a document.
type Tally struct {
	Applied int            // occurrences placed where the engine kept them
	Terms   map[string]int // applied occurrences by entry
	Lost    map[string]int // occurrences the engine dropped, by entry
	// Missing are occurrences an engine that enforces glossaries natively
	// left without the target term in its output, by entry.
	Missing map[string]int
}

func (t *Tally) init() {
	if t.Terms == nil {
		t.Terms, t.Lost, t.Missing = map[string]int{}, map[string]int{}, map[string]int{}
	}
}

// Add records one segment's placements and losses.
func (t *Tally) Add(placed, lost []Placed) {
	t.init()
	gone := make(map[int]bool, len(lost))
	for _, p := range lost {
		gone[p.ID] = true
		t.Lost[p.Source]++
	}
	for _, p := range placed {
		if !gone[p.ID] {
			t.Applied++
			t.Terms[p.Source]++
		}
	}
}

// Check records one segment an engine translated applying the glossary
// itself: expected are the source terms the segment has (as Protect finds
// them), out the engine's translation. An occurrence counts as applied
// while out holds its target term, compared case-insensitively because
// vendors adapt a term's case to the sentence; otherwise as missing.
func (t *Tally) Check(expected []Placed, out string) {
	if len(expected) == 0 {
		return
	}
	t.init()
	plain := strings.ToLower(tagged.Plain(out))
	left := map[string]int{} // target occurrences in out not yet counted
	for _, p := range expected {
		tgt := strings.ToLower(p.Target)
		n, ok := left[tgt]
		if !ok {
			n = strings.Count(plain, tgt)
		}
		if n > 0 {
			t.Applied++
			t.Terms[p.Source]++
			n--
		} else {
			t.Missing[p.Source]++
		}
		left[tgt] = n
	}
}

// Warnings are the job's report of a glossary: how many terms were
// applied, and the terms the engine could not place.
func (t *Tally) Warnings(name string) []string {
	out := []string{fmt.Sprintf("glossary %q: %d term occurrence(s) applied (%d distinct term(s))", name, t.Applied, len(t.Terms))}
	if n, names := listed(t.Lost); n > 0 {
		out = append(out, fmt.Sprintf("glossary %q: the engine dropped %d term occurrence(s), which could not be placed and were appended to the end of their sentences: %s", name, n, names))
	}
	if n, names := listed(t.Missing); n > 0 {
		out = append(out, fmt.Sprintf("glossary %q: the engine applied the glossary itself but its output lacks the target term for %d occurrence(s): %s", name, n, names))
	}
	return out
}

// listed is the number of occurrences in m and the quoted terms, sorted,
// at most 20 named.
func listed(m map[string]int) (int, string) {
	var names []string
	n := 0
	for s, c := range m {
		names = append(names, strconv.Quote(s))
		n += c
	}
	sort.Strings(names)
	if len(names) > 20 {
		names = append(names[:20], "…")
	}
	return n, strings.Join(names, ", ")
}

// Exact reports the entry whose source term (or capitalised variant) is
// exactly s, as a placement with the given code id.
func (m *Matcher) Exact(s string, id int) (Placed, bool) {
	if m == nil || s == "" {
		return Placed{}, false
	}
	if c, ok := m.terms[s]; ok {
		return Placed{ID: id, Source: c.entry, Target: c.tgt}, true
	}
	return Placed{}, false
}

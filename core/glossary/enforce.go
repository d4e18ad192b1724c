package glossary

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/terms"
)

// Placed is one occurrence of a source term hidden behind the isolated
// code <x id="ID"/>, which becomes Target after translation.
type Placed struct {
	ID     int
	Source string // the glossary entry's source term
	Target string // the text the code stands for in the translation
}

// Matcher finds a glossary's source terms in tagged text: the SDK's
// matcher (plugins/sdk/terms, which says how terms match) on each text
// part, never across an inline code.
type Matcher struct{ m *terms.Matcher }

// NewMatcher prepares entries for matching.
func NewMatcher(entries []Entry) *Matcher { return &Matcher{terms.New(entries)} }

// Protect replaces every occurrence of a source term in the text parts of
// tagged text (never across an inline code) by an isolated code numbered
// after the highest code id the text has. At each place the longest term
// that fits on word boundaries wins.
func (m *Matcher) Protect(src string) (string, []Placed) {
	if m == nil || m.m.Empty() {
		return src, nil
	}
	var placed []Placed
	out := protect.Hide(src, m.m.Find, func(f terms.Match) (int, int) { return f.From, f.To },
		func(id int, f terms.Match, _ string) {
			placed = append(placed, Placed{ID: id, Source: f.Entry, Target: f.Target})
		})
	return out, placed
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
	if m == nil {
		return Placed{}, false
	}
	f, ok := m.m.Exact(s)
	if !ok {
		return Placed{}, false
	}
	return Placed{ID: id, Source: f.Entry, Target: f.Target}, true
}

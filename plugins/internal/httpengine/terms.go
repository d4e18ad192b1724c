package httpengine

import (
	"html"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/plugins/sdk"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// Terms finds a glossary's source terms in text the way the host does
// (core/glossary, which a plugin may not import; a test keeps the two in
// agreement): case-sensitively on word boundaries, the longest term first
// at each place, a lower-case term also with a capital first letter
// (then with its target capitalised too), never inside a word except in
// scripts written without spaces (Chinese, Japanese, Thai, …).
type Terms struct {
	terms   map[string]string // source as matched → target
	byFirst map[rune][]int    // byte lengths of the terms starting with a rune, longest first
}

// NewTerms prepares a glossary's entries for matching.
func NewTerms(entries []sdk.GlossaryEntry) *Terms {
	t := &Terms{terms: make(map[string]string, 2*len(entries)), byFirst: map[rune][]int{}}
	exact := make(map[string]bool, len(entries))
	for _, e := range entries {
		exact[e.Source] = true
	}
	add := func(src, tgt string) {
		if _, dup := t.terms[src]; dup || src == "" {
			return
		}
		first, _ := utf8.DecodeRuneInString(src)
		t.terms[src] = tgt
		if !slices.Contains(t.byFirst[first], len(src)) {
			t.byFirst[first] = append(t.byFirst[first], len(src))
		}
	}
	for _, e := range entries {
		add(e.Source, e.Target)
	}
	for _, e := range entries {
		if c := capitalise(e.Source); c != e.Source && !exact[c] {
			add(c, capitalise(e.Target))
		}
	}
	for _, ls := range t.byFirst {
		sort.Sort(sort.Reverse(sort.IntSlice(ls)))
	}
	return t
}

// WithCapitalised is entries followed by the capitalised variants the
// host also matches: for a source term starting with a lower-case letter
// whose capitalised form has no entry of its own, that form with its
// target capitalised (a term opening a sentence). A vendor glossary that
// matches case-sensitively (Google's) then applies what the host expects.
func WithCapitalised(entries []sdk.GlossaryEntry) []sdk.GlossaryEntry {
	out := slices.Clone(entries)
	have := make(map[string]bool, len(entries))
	for _, e := range entries {
		have[e.Source] = true
	}
	for _, e := range entries {
		if c := capitalise(e.Source); !have[c] {
			have[c] = true
			out = append(out, sdk.GlossaryEntry{Source: c, Target: capitalise(e.Target)})
		}
	}
	return out
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return s
	}
	return string(unicode.ToTitle(r)) + s[n:]
}

// Match is one term found in plain text: text[From:To] is the source term.
type Match struct {
	From, To int
	Target   string
}

// Find scans plain text left to right; at each place a term may start,
// the longest that ends on a boundary is taken and the scan goes on after it.
func (t *Terms) Find(text string) []Match {
	if t == nil || len(t.terms) == 0 {
		return nil
	}
	var out []Match
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if lens := t.byFirst[r]; len(lens) > 0 && edgeOK(text, i, r, true) {
			matched := false
			for _, n := range lens {
				if i+n > len(text) {
					continue
				}
				src := text[i : i+n]
				if tgt, ok := t.terms[src]; ok {
					last, _ := utf8.DecodeLastRuneInString(src)
					if edgeOK(text, i+n, last, false) {
						out = append(out, Match{i, i + n, tgt})
						i += n
						matched = true
						break
					}
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

func unspaced(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai,
		unicode.Lao, unicode.Khmer, unicode.Myanmar, unicode.Tibetan) ||
		r == 'ー' || r == '々'
}

// ToHTMLMarking is ToHTML with every glossary term of the text (never
// across a code) written by mark(source, target) instead of as escaped
// text; mark gets the terms unescaped and must escape what it writes.
func ToHTMLMarking(seg string, terms *Terms, mark func(source, target string) string) string {
	if terms == nil {
		return ToHTML(seg)
	}
	var b strings.Builder
	for _, t := range tagged.Tokenize(seg) {
		if t.Kind != tagged.Text {
			writeCode(&b, t)
			continue
		}
		pos := 0
		for _, m := range terms.Find(t.Text) {
			b.WriteString(html.EscapeString(t.Text[pos:m.From]))
			b.WriteString(mark(t.Text[m.From:m.To], m.Target))
			pos = m.To
		}
		b.WriteString(html.EscapeString(t.Text[pos:]))
	}
	return b.String()
}

// Package protect keeps technical terms out of the engines' reach in the
// professional mode: before a segment is sent, every URL, e-mail address,
// file path, code identifier, version number, number with a unit and
// do-not-translate term is replaced by an isolated code <x id="N"/>, which
// every engine already keeps in place; after translation the codes are
// turned back into the original text. Doing it here, not in the engines,
// makes the mode behave the same with every engine.
package protect

import (
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind names what a protected span is, for tests and warnings.
type Kind string

const (
	Term       Kind = "term" // from the account's do-not-translate list
	URL        Kind = "url"
	Email      Kind = "email"
	Path       Kind = "path"
	Identifier Kind = "identifier"
	Version    Kind = "version"
	Quantity   Kind = "quantity" // number with a unit
)

// Span is one protected piece of text and the code that stands for it.
type Span struct {
	ID   int
	Kind Kind
	Text string // plain text
}

// patterns, in priority order: where two could match at the same place,
// the earlier one wins (RE2 prefers the first alternative).
var patterns = []struct {
	kind Kind
	re   string
}{
	{URL, `(?:(?:https?|ftp)://|www\.)[^\s<>"]+`},
	{Email, `[A-Za-z0-9._%+\-]+@[A-Za-z0-9\-]+(?:\.[A-Za-z0-9\-]+)*\.[A-Za-z]{2,}`},
	{Path, `(?:[A-Za-z]:\\|\\\\)[^\s<>"]+` + // C:\dir\file, \\server\share
		`|(?:~|\.{1,2})?/(?:[\w.\-]+/)+[\w.\-]*` + // /usr/bin/env, ./a/b
		`|~/[\w.\-]+` +
		`|[\w\-]+\.(?:go|py|js|ts|tsx|jsx|json|ya?ml|xml|html?|css|md|txt|docx?|xlsx?|pptx?|pdf|odt|rtf|exe|dll|so|sh|bat|ps1|conf|cfg|ini|toml|csv|sql|java|kt|cs|cpp|hpp|c|h|rs|rb|php|log|zip|tar|gz|png|jpe?g|svg)\b`},
	{Version, `v\d+(?:\.\d+)+(?:-[0-9A-Za-z.\-]+)?|\d+\.\d+\.\d+(?:\.\d+)*(?:-[0-9A-Za-z.\-]+)?`},
	{Quantity, `\d+(?:[.,]\d+)*\s?(?:%|°[CF]|[kKMGTP]i?B|[kMG]?Hz|[kMG]?bps|ms|µs|ns|mm|cm|km|mg|kg|ml|mL|kWh|kW|mAh|mA|px|pt|dpi|rpm|min|[smhgVWAlL])`},
	{Identifier, "`[^`\\s][^`]*`" + // `code`
		`|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(\)` + // call()  pkg.Func()
		`|[a-z][a-z0-9]*(?:_[a-z0-9]+)+` + // snake_case
		`|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+` + // SCREAMING_CASE
		`|[a-z]+[0-9]*(?:[A-Z][a-z0-9]+)+` + // camelCase
		`|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+` + // PascalCase, JavaScript
		`|--?[a-z][a-z0-9\-]+`}, // --command-line-flags
}

// Protector protects spans for one account.
type Protector struct {
	re    *regexp.Regexp
	kinds []Kind // by submatch group
}

// New builds a Protector; terms are the account's do-not-translate list,
// matched case-sensitively as whole words.
func New(terms []string) *Protector {
	terms = append([]string(nil), terms...)
	sort.Slice(terms, func(i, j int) bool { return len(terms[i]) > len(terms[j]) }) // longest first
	var alts []string
	var kinds []Kind
	var quoted []string
	for _, t := range terms {
		if t = strings.TrimSpace(t); t != "" {
			quoted = append(quoted, regexp.QuoteMeta(t))
		}
	}
	if len(quoted) > 0 {
		alts = append(alts, "("+strings.Join(quoted, "|")+")")
		kinds = append(kinds, Term)
	}
	for _, p := range patterns {
		alts = append(alts, "("+p.re+")")
		kinds = append(kinds, p.kind)
	}
	return &Protector{re: regexp.MustCompile(strings.Join(alts, "|")), kinds: kinds}
}

// Protect replaces protected spans in tagged text by isolated codes
// numbered after the highest code id the text already has, so they cannot
// clash with the document's own codes. Spans never cross a code.
func (p *Protector) Protect(tagged string) (string, []Span) {
	var spans []Span
	out := Hide(tagged, p.matches, func(m match) (int, int) { return m.from, m.to },
		func(id int, m match, text string) {
			spans = append(spans, Span{ID: id, Kind: m.kind, Text: text[m.from:m.to]})
		})
	return out, spans
}

type match struct {
	from, to int
	kind     Kind
}

func (p *Protector) matches(text string) []match {
	var out []match
	for _, loc := range p.re.FindAllStringSubmatchIndex(text, -1) {
		m := match{from: loc[0], to: loc[1]}
		for g := range p.kinds {
			if loc[2+2*g] >= 0 {
				m.kind = p.kinds[g]
				break
			}
		}
		if m.kind != Term && m.kind != Identifier {
			// Sentence punctuation after a URL, path or number is not part of it.
			m.to = m.from + len(strings.TrimRight(text[m.from:m.to], `.,;:!?)]}'"`))
		}
		if m.to <= m.from || !wordEdge(text, m.from, m.to) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// wordEdge reports whether text[from:to] is not glued to letters or
// digits on either side ("5m" in "25min" or "Go" in "Gopher" are not spans).
func wordEdge(text string, from, to int) bool {
	if from > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:from])
		if isWord(r) {
			return false
		}
	}
	if to < len(text) {
		r, _ := utf8.DecodeRuneInString(text[to:])
		if isWord(r) {
			return false
		}
	}
	return true
}

func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' }

// Restore turns the codes of spans back into their text. A code the engine
// lost is appended at the end of the segment, so no protected text is ever
// missing from the output; lost counts them.
func Restore(tagged string, spans []Span) (out string, lost int) {
	out, gone := RestoreLost(tagged, spans)
	return out, len(gone)
}

// RestoreLost is Restore naming the spans whose code the engine lost.
func RestoreLost(tagged string, spans []Span) (out string, lost []Span) {
	ids := make([]int, len(spans))
	for i, s := range spans {
		ids[i] = s.ID
	}
	out, gone := Reveal(tagged, ids, func(i int) string { return spans[i].Text })
	for _, i := range gone {
		lost = append(lost, spans[i])
	}
	return out, lost
}

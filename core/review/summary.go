package review

import (
	"fmt"
	"sync"
)

// Summary is what a job's review found: how many sentences to check, the
// sentences flagged by kind, and the flags about the whole document.
type Summary struct {
	Segments int          `json:"segments"` // sentences checked
	ToCheck  int          `json:"to_check"` // sentences whose score reaches CheckScore
	ByKind   map[Kind]int `json:"by_kind"`  // sentences with a flag of each kind
	Document []Flag       `json:"document,omitempty"`
	// Pages of the PDF renditions of the original and the translation,
	// when the job made them (0: not rendered).
	SourcePages int `json:"source_pages,omitempty"`
	Pages       int `json:"pages,omitempty"`
}

// Text is the summary a person reads first: "7 of 412 sentences to check".
func (s *Summary) Text() string {
	if s == nil {
		return ""
	}
	if s.ToCheck == 0 {
		return fmt.Sprintf("nothing to check in %s", plural(s.Segments, "sentence"))
	}
	return fmt.Sprintf("%d of %s to check", s.ToCheck, plural(s.Segments, "sentence"))
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Tally adds up the flags of a job's segments; safe for concurrent use.
type Tally struct {
	mu sync.Mutex
	s  Summary
}

// Add counts one segment with its flags.
func (t *Tally) Add(flags []Flag) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.s.Segments++
	if ToCheck(flags) {
		t.s.ToCheck++
	}
	seen := map[Kind]bool{}
	for _, f := range flags {
		if seen[f.Kind] {
			continue
		}
		seen[f.Kind] = true
		if t.s.ByKind == nil {
			t.s.ByKind = map[Kind]int{}
		}
		t.s.ByKind[f.Kind]++
	}
}

// Document adds a flag about the whole document.
func (t *Tally) Document(f Flag) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.s.Document = append(t.s.Document, f)
}

// Summary is the tally so far.
func (t *Tally) Summary() *Summary {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.s
	s.ByKind = make(map[Kind]int, len(t.s.ByKind))
	for k, n := range t.s.ByKind {
		s.ByKind[k] = n
	}
	s.Document = append([]Flag(nil), t.s.Document...)
	return &s
}

// What a sentence about the document says for each kind.
var about = map[Kind][2]string{
	UnknownWords:   {"has words the engine did not know", "have words the engine did not know"},
	Untranslated:   {"was left in the original language", "were left in the original language"},
	Numbers:        {"has numbers or dates that differ from the original", "have numbers or dates that differ from the original"},
	Addresses:      {"has a web or e-mail address that differs from the original", "have web or e-mail addresses that differ from the original"},
	Placeholders:   {"lost or changed a placeholder", "lost or changed placeholders"},
	Glossary:       {"does not use the glossary's term where it should", "do not use the glossary's terms where they should"},
	DoNotTranslate: {"changed a term that should stay as written", "changed terms that should stay as written"},
	Links:          {"lost a link, which was put back where it most likely belongs", "lost a link, which was put back where it most likely belongs"},
	Formatting:     {"lost formatting, which was put back where it most likely belongs", "lost formatting, which was put back where it most likely belongs"},
	Length:         {"is much longer or shorter than usual", "are much longer or shorter than usual"},
	Script:         {"has words in another script than the target language's", "have words in another script than the target language's"},
	Overflow:       {"no longer fits its text box, table row or frame", "no longer fit their text boxes, table rows or frames"},
}

// Sentences are the summary as sentences about the document, for the
// job's warnings: "7 of 412 sentences to check.", "3 sentences lost a
// link, which was put back where it most likely belongs." One per kind found, in Kinds order, then the document's flags.
// A route through other languages is said once by the job already.
func (s *Summary) Sentences() []string {
	if s == nil {
		return nil
	}
	var out []string
	if s.ToCheck > 0 {
		out = append(out, sentence(s.Text()))
	}
	for _, k := range Kinds {
		n := s.ByKind[k]
		words, ok := about[k]
		if n == 0 || !ok {
			continue
		}
		if n == 1 {
			out = append(out, "1 sentence "+words[0]+".")
		} else {
			out = append(out, fmt.Sprintf("%d sentences %s.", n, words[1]))
		}
	}
	for _, f := range s.Document {
		out = append(out, f.Message)
	}
	return out
}

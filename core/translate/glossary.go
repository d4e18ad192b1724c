package translate

import (
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/protect"
)

// terms enforces a job's glossary, whatever the engine and mode: each
// source term is hidden behind an isolated code after the professional
// mode's protection (so no term is matched inside a URL or path) and
// before the segment is sent; the code becomes the target term before the
// technical spans are restored. A protected span that is exactly a
// glossary term (a do-not-translate term, an identifier such as
// "JavaScript") takes the glossary's target: the glossary is the more
// specific instruction. The codes carry no term, so the translation memory
// stays valid whatever the glossary says. A nil *terms does nothing.
type terms struct {
	g     *glossary.Glossary
	m     *glossary.Matcher
	tally glossary.Tally
}

func newTerms(g *glossary.Glossary) *terms {
	if g == nil || len(g.Entries) == 0 {
		return nil
	}
	return &terms{g: g, m: glossary.NewMatcher(g.Entries)}
}

// protect hides the terms of tagged text, adopting the protected spans
// that are glossary terms; it returns the spans left to package protect.
func (t *terms) protect(tagged string, spans []protect.Span) (string, []protect.Span, []glossary.Placed) {
	if t == nil {
		return tagged, spans, nil
	}
	var adopted []glossary.Placed
	kept := spans[:0:0]
	for _, s := range spans {
		if p, ok := t.m.Exact(s.Text, s.ID); ok {
			adopted = append(adopted, p)
			continue
		}
		kept = append(kept, s)
	}
	out, placed := t.m.Protect(tagged)
	return out, kept, append(adopted, placed...)
}

func (t *terms) restore(tagged string, placed []glossary.Placed) string {
	if t == nil {
		return tagged
	}
	out, lost := glossary.Restore(tagged, placed)
	t.tally.Add(placed, lost)
	return out
}

func (t *terms) warnings() []string {
	if t == nil {
		return nil
	}
	return t.tally.Warnings(t.g.Name)
}

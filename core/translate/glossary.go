package translate

import "github.com/dragoman-translate/dragoman/core/glossary"

// terms enforces a job's glossary, whatever the engine and mode: each
// source term is hidden behind an isolated code before the segment is
// protected and sent, and the code becomes the target term after the
// technical spans are restored. The codes carry no term, so the
// translation memory stays valid whatever the glossary says. A nil *terms
// does nothing.
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

func (t *terms) protect(tagged string) (string, []glossary.Placed) {
	if t == nil {
		return tagged, nil
	}
	return t.m.Protect(tagged)
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

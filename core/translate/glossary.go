package translate

import (
	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
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
//
// When the job's only engine enforces glossaries itself for the pair
// (ports.Capabilities.GlossaryNative: DeepL's vendor glossaries, Azure's
// dictionary markup) the terms are left in the text and the glossary goes
// with every request instead; the memory is then keyed by the glossary's
// version too. The terms each segment has are still found, to report
// which the engine's output holds.
type terms struct {
	g      *glossary.Glossary
	m      *glossary.Matcher
	tally  glossary.Tally
	native *ports.Glossary // set when the engine applies the glossary
}

func newTerms(g *glossary.Glossary) *terms {
	if g == nil || len(g.Entries) == 0 {
		return nil
	}
	return &terms{g: g, m: glossary.NewMatcher(g.Entries)}
}

// nativeFor makes the engine of a single-leg route apply the glossary if
// it can; a route through English keeps the core's enforcement (the
// glossary's pair is neither leg's).
func (t *terms) nativeFor(legs []Leg) {
	if t == nil || len(legs) != 1 || !legs[0].Engine.Caps.GlossaryNative(legs[0].Source, legs[0].Target) {
		return
	}
	t.native = &ports.Glossary{Version: t.g.Version(), Entries: t.g.Entries}
}

// glossary is what requests carry: nil unless the engine applies it.
func (t *terms) glossary() *ports.Glossary {
	if t == nil {
		return nil
	}
	return t.native
}

// protect hides the terms of tagged text, adopting the protected spans
// that are glossary terms; it returns the spans left to package protect,
// the terms placed behind codes and, for a native engine, the terms the
// text has, left in place.
func (t *terms) protect(src string, spans []protect.Span) (out string, kept []protect.Span, placed, expected []glossary.Placed) {
	if t == nil {
		return src, spans, nil, nil
	}
	var adopted []glossary.Placed
	kept = spans[:0:0]
	for _, s := range spans {
		if p, ok := t.m.Exact(s.Text, s.ID); ok {
			adopted = append(adopted, p)
			continue
		}
		kept = append(kept, s)
	}
	hidden, found := t.m.Protect(src)
	// A text without letters is not sent (TranslateWith), so no engine can
	// apply the glossary to it: its terms take the codes as for any engine.
	if t.native != nil && hasLetters(tagged.Plain(src)) {
		return src, kept, adopted, found
	}
	return hidden, kept, append(adopted, found...), nil
}

// restore puts the target terms in place of their codes and counts what
// the engine kept; for a native engine it counts the expected terms whose
// target the output holds.
func (t *terms) restore(src string, placed, expected []glossary.Placed) string {
	if t == nil {
		return src
	}
	t.tally.Check(expected, src) // the engine's own words, before any code becomes a term
	out, lost := glossary.Restore(src, placed)
	t.tally.Add(placed, lost)
	return out
}

func (t *terms) warnings() []string {
	if t == nil {
		return nil
	}
	return t.tally.Warnings(t.g.Name)
}

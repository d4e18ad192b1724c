package translate

import (
	"context"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Estimate is what translating a document would take, found as the
// translation would go (route, protection, distinct texts, memory) but
// without calling an engine.
type Estimate struct {
	Segments int // segments in the document
	InMemory int // segments the first leg would take from the memory
	Legs     []LegEstimate
}

// LegEstimate is one leg of the route and what its engine would be sent.
type LegEstimate struct {
	Engine         string
	Source, Target string // ISO codes
	// Chars is the characters the engine would be sent (codes excluded,
	// as engines bill them).
	Chars int
	// Exact is false for a leg after the first whose input is only known
	// once the leg before it is translated: its characters are estimated
	// as those of that leg's input.
	Exact bool
}

// Estimate plans src→tgt for doc as TranslateWith would and counts, leg by
// leg, what the memory already holds and what the engines would be sent.
// ErrNoRoute when no engine serves the pair.
func (t *Translator) Estimate(ctx context.Context, doc *segment.Document, src, tgt string, mode translation.Mode, o Options) (Estimate, error) {
	engines, err := t.Engines.Engines(ctx)
	if err != nil {
		return Estimate{}, err
	}
	legs, ok := t.Routes.Plan(engines, src, tgt)
	if !ok {
		return Estimate{}, ErrNoRoute
	}
	var prot *protect.Protector
	if mode == translation.Professional {
		prot = protect.New(o.DoNotTranslate)
	}
	terms := newTerms(o.Glossary)
	terms.nativeFor(legs)
	plan, texts := distinct(doc, prot, terms)
	est := Estimate{Segments: len(plan)}

	known := make([]bool, len(texts)) // the leg's input text is known
	for i := range known {
		known[i] = true
	}
	for n, l := range legs {
		le := LegEstimate{Engine: l.Engine.Name, Source: l.Source, Target: l.Target, Exact: true}
		// Another account's entries (a shared memory) are counted as the
		// engine characters they stand for, as a job's metrics count them:
		// no quote reveals what another account translated.
		hits, foreign, _ := t.recall(ctx, memoryKey(o.Account, l, terms.glossary()), string(mode), texts)
		for i := range foreign {
			delete(hits, i)
		}
		for i, s := range texts {
			if !known[i] {
				le.Exact = false
			} else if h, ok := hits[i]; ok {
				texts[i] = h // the next leg's input
				continue
			}
			le.Chars += utf8.RuneCountInString(tagged.Plain(s))
			known[i] = false
		}
		if n == 0 {
			for _, p := range plan {
				if _, ok := hits[p.unique]; ok && p.unique >= 0 {
					est.InMemory++
				}
			}
		}
		est.Legs = append(est.Legs, le)
	}
	return est, nil
}

package translate

import (
	"context"
	"fmt"
	"sync"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// Session translates one job's units batch by batch, as the job's pass
// reads them: several batches may be translated at once. Each distinct
// text is sent once per job (a text another batch is sending is waited
// for), the memory answers before any engine, and every engine answer is
// written to the memory before its batch returns.
type Session struct {
	t       *Translator
	legs    []Leg
	mode    translation.Mode
	prot    *protect.Protector
	terms   *terms
	account string // whose memory the job reads and fills

	mu      sync.Mutex
	res     Result
	lost    int
	known   map[string]answer  // distinct protected texts answered in this job
	size    int                // bytes held by known
	flights map[string]*flight // texts a batch is translating now
}

// flight is a text being translated by one batch, which others wait for.
type flight struct {
	done chan struct{}
	out  answer
	err  error
}

// answer is a text's translation and what the engines noted about it.
type answer struct {
	text    string
	unknown []string
	fixes   []tagged.Fix
}

// sessionMemory bounds the texts a session keeps to send each once; past
// it a repeated text is answered by the translation memory instead.
const sessionMemory = 32 << 20

// Begin plans a job's translation src→tgt: the engines (a chain of legs
// when none serves the pair directly), the mode's protection and the glossary. ErrNoRoute when no
// engine serves the pair.
func (t *Translator) Begin(ctx context.Context, src, tgt string, mode translation.Mode, o Options) (*Session, error) {
	engines, err := t.Engines.Engines(ctx)
	if err != nil {
		return nil, err
	}
	legs, ok := t.Routes.Plan(engines, src, tgt)
	if !ok {
		return nil, ErrNoRoute
	}
	s := &Session{t: t, legs: legs, mode: mode, account: o.Account, known: map[string]answer{}, flights: map[string]*flight{}}
	s.res.Engine, s.res.Route = engineNames(legs), route(legs)
	if len(legs) > 1 {
		s.res.Warnings = append(s.res.Warnings, chainWarning(legs))
	}
	for _, l := range legs {
		if !modeHonoured(l.Engine.Caps, mode) {
			s.res.Warnings = append(s.res.Warnings, fmt.Sprintf("engine %s does not support the %q mode; the document was translated in full mode", l.Engine.Name, mode))
		}
	}
	// In the professional mode each text is sent with its technical spans hidden.
	if mode == translation.Professional {
		s.prot = protect.New(o.DoNotTranslate)
	}
	s.terms = newTerms(o.Glossary)
	s.terms.nativeFor(legs)
	return s, nil
}

// BatchSegments is how many segments an engine call of this job carries
// at most: the size worth handing to Translate at a time.
func (s *Session) BatchSegments() int {
	n, _ := limits(s.legs[0].Engine.Caps, s.t.BatchSegments)
	return n
}

// pending is one segment's way through the engines.
type pending struct {
	unique int // index into the call's distinct texts; -1: not sent (no letters)
	spans  []protect.Span
	terms  []glossary.Placed // behind codes
	found  []glossary.Placed // left in the text for an engine that applies the glossary
	text   string            // what stands for the source once protected
}

// Translate fills the Target of every segment of units.
func (s *Session) Translate(ctx context.Context, units []segment.Unit) error {
	plan, texts := distinct(&segment.Document{Units: units}, s.prot, s.terms) // this call's distinct texts
	out, err := s.answer(ctx, texts)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.res.Metrics.Segments += len(plan)
	k := 0
	for i := range units {
		for j := range units[i].Segments {
			p := plan[k]
			k++
			a := answer{text: p.text} // not sent: no letters outside the protected spans
			if p.unique >= 0 {
				a = out[p.unique]
			}
			sg := &units[i].Segments[j]
			restored, lostTerms := s.terms.restore(a.text, p.terms, p.found)
			var lost []protect.Span
			sg.Target, lost = protect.RestoreLost(restored, p.spans)
			s.lost += len(lost)
			sg.Notes = segment.Notes{Unknown: a.unknown}
			sg.Notes.Fixes, sg.Notes.LostTerms = ownFixes(a.fixes, p)
			for _, l := range lostTerms {
				sg.Notes.LostTerms = append(sg.Notes.LostTerms, l.Target)
			}
			for _, l := range lost {
				if l.Kind == protect.Term {
					sg.Notes.LostTerms = append(sg.Notes.LostTerms, l.Text)
				}
			}
		}
	}
	return nil
}

// answer translates distinct texts: those this job answered already, those
// another batch is translating (waited for), the rest sent here.
func (s *Session) answer(ctx context.Context, texts []string) ([]answer, error) {
	out := make([]answer, len(texts))
	var mine []int
	waits := map[int]*flight{}
	s.mu.Lock()
	for i, text := range texts {
		if v, ok := s.known[text]; ok {
			out[i] = v
		} else if f := s.flights[text]; f != nil {
			waits[i] = f
		} else {
			s.flights[text] = &flight{done: make(chan struct{})}
			mine = append(mine, i)
		}
	}
	s.mu.Unlock()

	send := make([]string, len(mine))
	for j, i := range mine {
		send[j] = texts[i]
	}
	got, err := s.send(ctx, send)
	s.mu.Lock()
	for j, i := range mine {
		f := s.flights[texts[i]]
		delete(s.flights, texts[i])
		if err != nil {
			f.err = err
		} else {
			f.out, out[i] = got[j], got[j]
			if s.size < sessionMemory {
				s.known[texts[i]] = got[j]
				s.size += len(texts[i]) + len(got[j].text)
			}
		}
		close(f.done)
	}
	s.mu.Unlock()
	if err != nil {
		return nil, err
	}
	for i, f := range waits {
		select {
		case <-f.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if f.err != nil {
			return nil, f.err
		}
		out[i] = f.out
	}
	return out, nil
}

// send translates texts with the job's engines, leg after leg; what each
// engine noted about a text is kept with its answer.
func (s *Session) send(ctx context.Context, texts []string) ([]answer, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	out := make([]answer, len(texts))
	var err error
	for _, l := range s.legs {
		var m Result
		var notes map[int]tagged.Note
		g := s.terms.glossary()
		texts, notes, err = s.t.translateLeg(ctx, memoryKey(s.account, l, g), l, s.mode, g, texts, &m)
		for i, n := range notes {
			out[i].unknown = append(out[i].unknown, n.Unknown...)
			out[i].fixes = append(out[i].fixes, n.Fixes...)
		}
		s.mu.Lock()
		s.res.Metrics.EngineCalls += m.Metrics.EngineCalls
		s.res.Metrics.CharsSent += m.Metrics.CharsSent
		s.res.Metrics.CacheHits += m.Metrics.CacheHits
		s.res.Warnings = appendNew(s.res.Warnings, m.Warnings...)
		s.mu.Unlock()
		if err != nil {
			if ctx.Err() != nil { // shutting down or timed out: not the engine's fault
				return nil, ctx.Err()
			}
			return nil, &EngineError{Engine: l.Engine.Name, Err: err}
		}
	}
	for i := range out {
		out[i].text = texts[i]
	}
	return out, nil
}

// Result is what the session did so far.
func (s *Session) Result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.res
	r.Warnings = append(append([]string(nil), r.Warnings...), s.terms.warnings()...)
	if s.lost > 0 {
		what := "1 protected term or address; it was put back at the end of its sentence"
		if s.lost > 1 {
			what = fmt.Sprintf("%d protected terms or addresses; they were put back at the end of their sentences", s.lost)
		}
		r.Warnings = append(r.Warnings, "the engine dropped "+what)
	}
	return r
}

// ownFixes splits the repairs an engine made to the codes of a text: those
// of the segment's own codes, and the glossary and do-not-translate terms
// whose placeholder it dropped and put back by guess (the placeholders of
// other protected spans, such as addresses, are checked by their text).
func ownFixes(fixes []tagged.Fix, p pending) (own []tagged.Fix, terms []string) {
	for _, f := range fixes {
		placeholder := false
		for _, t := range p.terms {
			if t.ID == f.Code {
				placeholder = true
				if f.Placed != "" {
					terms = append(terms, t.Target)
				}
			}
		}
		for _, sp := range p.spans {
			if sp.ID == f.Code {
				placeholder = true
				if sp.Kind == protect.Term && f.Placed != "" {
					terms = append(terms, sp.Text)
				}
			}
		}
		if !placeholder {
			own = append(own, f)
		}
	}
	return own, terms
}

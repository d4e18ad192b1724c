package translate

import (
	"context"
	"fmt"
	"sync"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/protect"
	"github.com/dragoman-translate/dragoman/core/segment"
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
	known   map[string]string  // distinct protected texts answered in this job
	size    int                // bytes held by known
	flights map[string]*flight // texts a batch is translating now
}

// flight is a text being translated by one batch, which others wait for.
type flight struct {
	done chan struct{}
	out  string
	err  error
}

// sessionMemory bounds the texts a session keeps to send each once; past
// it a repeated text is answered by the translation memory instead.
const sessionMemory = 32 << 20

// Begin plans a job's translation src→tgt: the engines (or two through
// English), the mode's protection and the glossary. ErrNoRoute when no
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
	s := &Session{t: t, legs: legs, mode: mode, account: o.Account, known: map[string]string{}, flights: map[string]*flight{}}
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
			t := p.text // not sent: no letters outside the protected spans
			if p.unique >= 0 {
				t = out[p.unique]
			}
			var n int
			units[i].Segments[j].Target, n = protect.Restore(s.terms.restore(t, p.terms, p.found), p.spans)
			s.lost += n
		}
	}
	return nil
}

// answer translates distinct texts: those this job answered already, those
// another batch is translating (waited for), the rest sent here.
func (s *Session) answer(ctx context.Context, texts []string) ([]string, error) {
	out := make([]string, len(texts))
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
				s.size += len(texts[i]) + len(got[j])
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

// send translates texts with the job's engines, leg after leg.
func (s *Session) send(ctx context.Context, texts []string) ([]string, error) {
	if len(texts) == 0 {
		return nil, nil
	}
	var err error
	for _, l := range s.legs {
		var m Result
		g := s.terms.glossary()
		texts, err = s.t.translateLeg(ctx, memoryKey(s.account, l, g), l, s.mode, g, texts, &m)
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
	return texts, nil
}

// Result is what the session did so far.
func (s *Session) Result() Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.res
	r.Warnings = append(append([]string(nil), r.Warnings...), s.terms.warnings()...)
	if s.lost > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("the engine dropped %d protected term(s); they were appended to the end of their sentences", s.lost))
	}
	return r
}

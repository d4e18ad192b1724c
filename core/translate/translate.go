// Package translate sends a document's segments to the engines: it picks
// the engine for a language pair (priority order, per-pair routes, or a
// chain of up to three served pairs), protects technical spans in the professional
// mode, sends each distinct segment once, skips what the translation
// memory already holds, and sends the rest in batches sized to the engine
// with bounded concurrency per engine.
//
// Modes, as the core applies them whatever the engine:
//
//   - professional: spans are protected by package protect before any
//     engine sees them, then the text is translated as "full";
//   - full: everything is translated;
//   - literal and extreme: passed to the engine, which honours them if its
//     Capabilities list them; otherwise the job gets a warning and the
//     engine's full translation.
package translate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dragoman-translate/dragoman/core/protect"

	"github.com/dragoman-translate/dragoman/core/glossary"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// ErrNoRoute is returned when no enabled engine serves a pair.
var ErrNoRoute = errors.New("no configured engine serves this language pair")

// EngineError is a failure of an engine after retries; the job fails with
// a message naming the engine.
type EngineError struct {
	Engine string
	Err    error
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("translation engine %q failed: %v", e.Engine, e.Err)
}
func (e *EngineError) Unwrap() error { return e.Err }

// Result is what translating a document did.
type Result struct {
	Engine   string    // the route's engines, each once, in order: "apertium", "deepl+apertium"
	Route    []job.Leg // the legs, one per engine call chain: en→es→fr is two
	Metrics  job.Metrics
	Warnings []string
}

// Options are per-job settings beyond the pair and mode.
type Options struct {
	// DoNotTranslate is the account's list of terms kept as they are in
	// the professional mode (account.Account.DoNotTranslate).
	DoNotTranslate []string
	// Glossary, when set, is enforced in every mode (see glossary.go).
	Glossary *glossary.Glossary
	// Account is whose translation memory the job reads and fills.
	Account string
}

// Translator translates documents with the enabled engines. The zero
// value of every field but Engines is usable.
type Translator struct {
	Engines ports.EngineRegistry
	// TM, when set, answers segments the account translated before with
	// the same engine, mode and direction, so a document translated twice
	// costs nothing.
	// Every engine answer is written to it as it arrives, before its
	// batch is done: it is the checkpoint a job rerun after a crash
	// resumes from.
	TM ports.TranslationMemory
	// SharedMemory lets a job take what any account's memory holds
	// (--shared-memory: accounts of one organisation). Another account's
	// hits are reported as the engine calls they would have cost, so no
	// job's metrics tell one account what another translated.
	SharedMemory bool
	// Routes overrides the priority order per pair (DRAGOMAN_ROUTES).
	Routes Routes
	// Attempts per batch for errors an engine may recover from (a plugin
	// restarted after a crash). Default 3. Plugins retry their own HTTP
	// errors (honouring Retry-After), so only Retryable errors are retried
	// here.
	Attempts int
	Backoff  time.Duration // first retry delay; doubles. Default 500ms.
	// Retryable says whether a failed batch is worth sending again; nil
	// retries every error. Wire it to the plugin host's crash error so an
	// engine that already gave up is not asked again.
	Retryable func(error) bool
	// Concurrency bounds the batches in flight per engine, across all jobs
	// of this process (DRAGOMAN_ENGINE_CONCURRENCY). Default 4.
	Concurrency int
	// BatchSegments caps the segments of one engine call below the
	// engine's own MaxSegments (DRAGOMAN_BATCH_SEGMENTS); 0: the engine's
	// limit. Smaller batches put more of one document in flight at once.
	BatchSegments int
	// Throughput, when set, records each successful call's characters and
	// time, from which quotes estimate how long a translation takes.
	Throughput ports.EngineThroughput

	mu    sync.Mutex
	slots map[string]chan struct{}
	mw    *memoryWriter
}

// Translate fills every segment's Target in doc.
func (t *Translator) Translate(ctx context.Context, doc *segment.Document, src, tgt string, mode translation.Mode) (Result, error) {
	return t.TranslateWith(ctx, doc, src, tgt, mode, Options{})
}

// TranslateWith is Translate with per-job options: the whole document as
// one batch of a Session.
func (t *Translator) TranslateWith(ctx context.Context, doc *segment.Document, src, tgt string, mode translation.Mode, o Options) (Result, error) {
	s, err := t.Begin(ctx, src, tgt, mode, o)
	if err != nil {
		return Result{}, err
	}
	err = s.Translate(ctx, doc.Units)
	return s.Result(), err
}

// distinct is what the engines are sent for doc: each segment's text with
// its technical spans and glossary terms hidden (plan, in document order)
// and the distinct texts with letters among them (unique), each sent once.
func distinct(doc *segment.Document, prot *protect.Protector, terms *terms) (plan []pending, unique []string) {
	seen := map[string]int{}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		p := pending{unique: -1}
		text := s.Source
		if prot != nil {
			text, p.spans = prot.Protect(text)
		}
		text, p.spans, p.terms, p.found = terms.protect(text, p.spans) // after: no term inside a URL or path
		if hasLetters(tagged.Plain(text)) {
			i, ok := seen[text]
			if !ok {
				i = len(unique)
				seen[text] = i
				unique = append(unique, text)
			}
			p.unique = i
		}
		p.text = text
		plan = append(plan, p)
	})
	return plan, unique
}

// translateLeg translates texts with one engine: memory hits first, the
// rest in batches, fresh output stored back under key. g is the glossary
// the engine applies itself, or nil. notes are what the engine noted about
// some texts, by index (a text from the memory has what its engine noted
// when it first translated it).
func (t *Translator) translateLeg(ctx context.Context, key tmLeg, l Leg, mode translation.Mode, g *ports.Glossary, texts []string, res *Result) (out []string, notes map[int]tagged.Note, err error) {
	out = make([]string, len(texts))
	hits, foreign, notes := t.recall(ctx, key, string(mode), texts)
	var todo []int // indexes into texts the engine must translate
	for i := range texts {
		if h, ok := hits[i]; ok {
			out[i] = h
			if !foreign[i] {
				res.Metrics.CacheHits++
			}
			continue
		}
		todo = append(todo, i)
	}
	t.asIfSent(ctx, key, l, mode, texts, out, todo, foreign, res)
	send := make([]string, len(todo))
	for j, i := range todo {
		send[j] = texts[i]
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	slots := t.slotsFor(l.Engine.Name)
	for _, b := range batches(send, l.Engine.Caps, t.BatchSegments) {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := ports.TranslateRequest{Source: l.Source, Target: l.Target, Mode: mode, Segments: send[b.from:b.to], Glossary: g}
			r, calls, err := t.call(ctx, l.Engine, req)
			got, warns := r.Segments, r.Warnings
			<-slots
			// An engine that applies the glossary warns when it could not
			// (its vendor refused it): that output, made without the
			// glossary, must not be recalled under the glossary's version.
			if err == nil && (g == nil || len(warns) == 0) {
				t.remember(ctx, key, string(mode), req.Segments, got, batchNotes(r.Notes))
			}
			mu.Lock()
			defer mu.Unlock()
			res.Metrics.EngineCalls += calls
			for _, s := range req.Segments { // text, as engines bill it; codes excluded
				res.Metrics.CharsSent += utf8.RuneCountInString(tagged.Plain(s)) * calls
			}
			if err != nil {
				if firstErr == nil {
					firstErr = err
					cancel()
				}
				return
			}
			res.Warnings = appendNew(res.Warnings, warns...)
			for j, s := range got {
				out[todo[b.from+j]] = s
			}
			for _, n := range r.Notes {
				if notes == nil {
					notes = map[int]tagged.Note{}
				}
				notes[todo[b.from+n.Segment]] = n
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return out, notes, nil
}

// batchNotes are an engine's notes by index into its batch.
func batchNotes(ns []tagged.Note) map[int]tagged.Note {
	if len(ns) == 0 {
		return nil
	}
	m := make(map[int]tagged.Note, len(ns))
	for _, n := range ns {
		m[n.Segment] = n
	}
	return m
}

// slotsFor is the engine's semaphore, shared by all jobs.
func (t *Translator) slotsFor(engine string) chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.slots == nil {
		t.slots = map[string]chan struct{}{}
	}
	s, ok := t.slots[engine]
	if !ok {
		n := t.Concurrency
		if n <= 0 {
			n = 4
		}
		s = make(chan struct{}, n)
		t.slots[engine] = s
	}
	return s
}

// call sends one batch, retrying what Retryable allows; calls counts the
// requests the engine received.
func (t *Translator) call(ctx context.Context, e ports.Engine, req ports.TranslateRequest) (res ports.TranslateResult, calls int, err error) {
	attempts, wait := t.Attempts, t.Backoff
	if attempts <= 0 {
		attempts = 3
	}
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	for i := 0; i < attempts; i++ {
		if i > 0 {
			if t.Retryable != nil && !t.Retryable(err) {
				break
			}
			select {
			case <-ctx.Done():
				return res, calls, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		var r ports.TranslateResult
		began := time.Now()
		r, err = e.Provider.Translate(ctx, req)
		calls++
		if err == nil && len(r.Segments) != len(req.Segments) {
			err = fmt.Errorf("engine returned %d segments for %d", len(r.Segments), len(req.Segments))
		}
		if err == nil {
			t.measured(ctx, e.Name, req.Segments, time.Since(began))
			return r, calls, nil
		}
	}
	return res, calls, err
}

type span struct{ from, to int }

// limits are the most segments and characters of one engine call.
func limits(c ports.Capabilities, perBatch int) (segments, chars int) {
	segments, chars = c.MaxSegments, c.MaxChars
	if segments <= 0 {
		segments = 100
	}
	if perBatch > 0 && perBatch < segments {
		segments = perBatch
	}
	if chars <= 0 {
		chars = 50_000
	}
	return segments, chars
}

// batches cuts segments into runs within the engine's limits and at most
// perBatch segments (0: no cap of its own).
func batches(segs []string, c ports.Capabilities, perBatch int) []span {
	maxN, maxC := limits(c, perBatch)
	var out []span
	from, chars := 0, 0
	for i, s := range segs {
		n := len(s)
		if i > from && (i-from >= maxN || chars+n > maxC) {
			out = append(out, span{from, i})
			from, chars = i, 0
		}
		chars += n
	}
	if from < len(segs) {
		out = append(out, span{from, len(segs)})
	}
	return out
}

func modeHonoured(c ports.Capabilities, m translation.Mode) bool {
	if m == translation.Full || m == translation.Professional { // professional protection happens in the core
		return true
	}
	for _, have := range c.Modes {
		if have == m {
			return true
		}
	}
	return false
}

func hasLetters(s string) bool {
	for _, r := range s {
		if unicode.IsLetter(r) {
			return true
		}
	}
	return false
}

func appendNew(list []string, items ...string) []string {
outer:
	for _, it := range items {
		for _, have := range list {
			if have == it {
				continue outer
			}
		}
		list = append(list, it)
	}
	return list
}

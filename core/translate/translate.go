// Package translate sends a document's segments to the engines: it picks
// the engine for a language pair, sends each distinct segment once, in
// batches sized to the engine, and retries what failed for a passing reason.
package translate

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/language"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// Route returns the first engine, in priority order, that serves src→tgt.
func Route(engines []ports.Engine, src, tgt string) (ports.Engine, bool) {
	for _, e := range engines {
		if Serves(e.Caps, src, tgt) {
			return e, true
		}
	}
	return ports.Engine{}, false
}

// Serves reports whether an engine translates src→tgt.
func Serves(c ports.Capabilities, src, tgt string) bool {
	if c.AnyToAny {
		_, okS := language.ByCode(src)
		_, okT := language.ByCode(tgt)
		return okS && okT
	}
	for _, p := range c.Pairs {
		if p.Source == src && p.Target == tgt {
			return true
		}
	}
	return false
}

// Targets lists the registry languages some engine can produce, by name.
func Targets(engines []ports.Engine) []language.Language {
	var out []language.Language
	for _, l := range language.All() {
		for _, e := range engines {
			if e.Caps.AnyToAny || producesTarget(e.Caps, l.Code) {
				out = append(out, l)
				break
			}
		}
	}
	return out
}

func producesTarget(c ports.Capabilities, code string) bool {
	for _, p := range c.Pairs {
		if p.Target == code {
			return true
		}
	}
	return false
}

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
	Engine   string
	Metrics  job.Metrics
	Warnings []string
}

// Translator translates documents with the enabled engines.
type Translator struct {
	Engines ports.EngineRegistry
	// Attempts per batch for errors an engine may recover from (a plugin
	// restarted after a crash, a rate limit). Default 3.
	Attempts int
	Backoff  time.Duration // first retry delay; doubles. Default 500ms.
}

// Translate fills every segment's Target in doc.
func (t *Translator) Translate(ctx context.Context, doc *segment.Document, src, tgt string, mode job.Mode) (Result, error) {
	engines, err := t.Engines.Engines(ctx)
	if err != nil {
		return Result{}, err
	}
	e, ok := Route(engines, src, tgt)
	if !ok {
		return Result{}, ErrNoRoute
	}
	res := Result{Engine: e.Name}
	if !modeHonoured(e.Caps, mode) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("engine %s does not support the %q mode; the document was translated in full mode", e.Name, mode))
	}

	// Each distinct source text is sent once.
	var unique []string
	seen := map[string]int{}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		res.Metrics.Segments++
		if segment.Plain(s.Source) == "" || !hasLetters(segment.Plain(s.Source)) {
			return
		}
		if _, ok := seen[s.Source]; !ok {
			seen[s.Source] = len(unique)
			unique = append(unique, s.Source)
		}
	})
	targets := make([]string, len(unique))
	for _, b := range batches(unique, e.Caps) {
		out, warns, err := t.call(ctx, e, ports.TranslateRequest{Source: src, Target: tgt, Mode: mode, Segments: unique[b.from:b.to]})
		if err != nil {
			return res, &EngineError{Engine: e.Name, Err: err}
		}
		res.Metrics.EngineCalls++
		for _, s := range unique[b.from:b.to] {
			res.Metrics.CharsSent += len([]rune(s))
		}
		res.Warnings = append(res.Warnings, warns...)
		copy(targets[b.from:b.to], out)
	}
	doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) {
		if i, ok := seen[s.Source]; ok {
			s.Target = targets[i]
		} else {
			s.Target = s.Source
		}
	})
	return res, nil
}

func (t *Translator) call(ctx context.Context, e ports.Engine, req ports.TranslateRequest) ([]string, []string, error) {
	attempts, wait := t.Attempts, t.Backoff
	if attempts <= 0 {
		attempts = 3
	}
	if wait <= 0 {
		wait = 500 * time.Millisecond
	}
	var last error
	for i := 0; i < attempts; i++ {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			case <-time.After(wait):
			}
			wait *= 2
		}
		r, err := e.Provider.Translate(ctx, req)
		if err == nil && len(r.Segments) != len(req.Segments) {
			err = fmt.Errorf("engine returned %d segments for %d", len(r.Segments), len(req.Segments))
		}
		if err == nil {
			return r.Segments, r.Warnings, nil
		}
		last = err
	}
	return nil, nil, last
}

type span struct{ from, to int }

// batches cuts segments into runs within the engine's limits.
func batches(segs []string, c ports.Capabilities) []span {
	maxN, maxC := c.MaxSegments, c.MaxChars
	if maxN <= 0 {
		maxN = 100
	}
	if maxC <= 0 {
		maxC = 50_000
	}
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

func modeHonoured(c ports.Capabilities, m job.Mode) bool {
	if m == job.Full || m == job.Professional { // professional protection happens in the core
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

package pipeline

import (
	"context"
	"errors"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// translationState is the translation side of a pass.
type translationState struct {
	session *translate.Session // nil: nothing to translate (source is target) or no engine
	engine  string             // the job's engine when no session runs
	// The account's own memory (human translations) answers first.
	remembered, segments int
	sent                 bool // some segment went to a session
}

// batch is units on their way through the engines.
type batch struct {
	units []segment.Unit
	done  chan struct{}
	err   error
}

// translateFrom starts translating the units read: batches of the
// engine's size, several at once, handed on in reading order. When the
// last is translated the phase is announced and the done queue closed.
func (r *run) translateFrom(ctx context.Context) {
	if err := r.begin(ctx); err != nil {
		r.fail(err)
		r.done.close(err)
		return
	}
	size, workers := 100, 4
	if t := r.p.Translator; t != nil && t.Concurrency > 0 {
		workers = t.Concurrency
	}
	if s := r.tr.session; s != nil {
		size = s.BatchSegments()
	}
	order := make(chan *batch, 2*workers) // read ahead of the oldest batch in flight
	work := make(chan *batch)
	r.wg.Add(2 + workers)
	go func() { // the producer: batches in reading order
		defer r.wg.Done()
		defer close(order)
		defer close(work)
		for {
			b, err := r.nextBatch(ctx, size)
			if len(b.units) > 0 {
				select {
				case order <- b:
				case <-ctx.Done():
					return
				}
				select {
				case work <- b:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	for range workers {
		go func() {
			defer r.wg.Done()
			for b := range work {
				b.err = r.translateBatch(ctx, b.units)
				close(b.done)
			}
		}()
	}
	go func() { // the sequencer: translated batches in reading order
		defer r.wg.Done()
		for b := range order {
			select {
			case <-b.done:
			case <-ctx.Done():
				r.done.close(ctx.Err())
				return
			}
			if b.err == nil {
				b.err = r.done.push(b.units)
			}
			if b.err != nil {
				r.fail(b.err)
				r.done.close(b.err)
				return
			}
		}
		select { // the phases are announced in order
		case <-r.extractedOut:
		case <-ctx.Done():
		}
		if err := ctx.Err(); err != nil {
			r.done.close(err)
			return
		}
		res := r.result()
		err := r.progress(ctx, job.StageTranslated, ports.TopicTranslated, func(j *job.Job) {
			j.Engine, j.Route, j.Metrics = res.Engine, res.Route, res.Metrics
		})
		if err != nil {
			r.fail(err)
		}
		r.done.close(err)
	}()
}

// nextBatch takes read units up to size segments (one unit at least), so
// a batch is an engine call; its error is the end of the read queue.
func (r *run) nextBatch(ctx context.Context, size int) (*batch, error) {
	b := &batch{done: make(chan struct{})}
	n := 0
	if r.carry != nil {
		b.units = append(b.units, *r.carry)
		n, r.carry = max(len(r.carry.Segments), 1), nil
	}
	for n < size {
		u, err := r.read.pop(ctx)
		if err != nil {
			return b, err
		}
		if k := max(len(u.Segments), 1); n > 0 && n+k > size {
			r.carry = &u // the next batch's first
			break
		}
		b.units = append(b.units, u)
		n += max(len(u.Segments), 1)
	}
	return b, nil
}

// begin opens the job's translation session, unless there is nothing to
// translate (the source is the target) or no engine for the pair (the
// read then fails the job if it finds words).
func (r *run) begin(ctx context.Context) error {
	p, j := r.p, r.j
	src, tgt := r.source.Code, j.TargetLang
	if src == tgt {
		r.tr.engine = "none"
		r.startReview(nil, nil)
		return nil
	}
	g, err := p.glossary(ctx, j)
	if err != nil {
		return err
	}
	s, err := p.Translator.Begin(ctx, src, tgt, j.Mode, translate.Options{DoNotTranslate: r.dnt, Glossary: g, Account: j.AccountID})
	if errors.Is(err, translate.ErrNoRoute) {
		r.tr.engine = "none"
		r.startReview(g, nil)
		return nil
	}
	if err != nil {
		return err
	}
	r.tr.session = s
	r.startReview(g, s.Result().Route)
	return nil
}

// translateBatch fills the targets of units: from the account's own
// memory what it holds, exactly as stored (a human translation wins over
// any engine's; an error reading it only means no hits), the rest from
// the session.
func (r *run) translateBatch(ctx context.Context, units []segment.Unit) error {
	s := r.tr.session
	if s == nil {
		for i := range units {
			for k := range units[i].Segments {
				units[i].Segments[k].Target = units[i].Segments[k].Source
			}
		}
		r.checkBatch(units)
		return nil
	}
	var hits map[string]string
	if r.p.Memory != nil {
		var sources []string
		for _, u := range units {
			for _, sg := range u.Segments {
				sources = append(sources, sg.Source)
			}
		}
		hits, _ = r.p.Memory.RecallMemory(ctx, r.j.AccountID, r.source.Code, r.j.TargetLang, sources)
	}
	rest := units
	var where [][2]int // unit and segment of each segment left, when some were remembered
	found, total := 0, 0
	if len(hits) > 0 {
		rest = nil
		for i := range units {
			u := &units[i]
			var left []segment.Segment
			for k := range u.Segments {
				sg := &u.Segments[k]
				total++
				if t, ok := hits[sg.Source]; ok {
					sg.Target = t
					found++
					continue
				}
				left = append(left, *sg)
				where = append(where, [2]int{i, k})
			}
			if len(left) > 0 {
				rest = append(rest, segment.Unit{ID: u.ID, Part: u.Part, Codes: u.Codes, Segments: left})
			}
		}
	} else {
		for _, u := range units {
			total += len(u.Segments)
		}
	}
	if len(rest) > 0 {
		if err := s.Translate(ctx, rest); err != nil {
			return engineFailure(err, r.source.Code, r.j.TargetLang)
		}
		if len(hits) > 0 {
			n := 0
			for _, u := range rest {
				for _, sg := range u.Segments {
					// The engine's notes too: the review flags them.
					units[where[n][0]].Segments[where[n][1]] = sg
					n++
				}
			}
		}
	}
	r.checkBatch(units)
	r.mu.Lock()
	r.tr.remembered += found
	r.tr.segments += total
	r.tr.sent = r.tr.sent || len(rest) > 0
	r.mu.Unlock()
	return nil
}

// engineFailure turns a session's error into the job's.
func engineFailure(err error, src, tgt string) error {
	var ee *translate.EngineError
	switch {
	case errors.As(err, &ee):
		return &Failure{Msg: ee.Error()}
	case errors.Is(err, translate.ErrNoRoute):
		return failf("no configured engine translates %s to %s", language.NameOf(src), language.NameOf(tgt))
	}
	return err
}

// result is what the translation did so far.
func (r *run) result() translate.Result {
	r.mu.Lock()
	defer r.mu.Unlock()
	var res translate.Result
	if r.tr.session != nil {
		res = r.tr.session.Result()
	} else {
		res.Engine = r.tr.engine
	}
	if r.tr.remembered > 0 {
		if !r.tr.sent {
			res.Engine = "memory"
		}
		res.Metrics.CacheHits += r.tr.remembered
		res.Metrics.Segments += r.tr.remembered
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d sentences were taken from the account's translation memory (human translations), not from an engine", r.tr.remembered, r.tr.segments))
	}
	return res
}

package pipeline

import (
	"bufio"
	"context"
	"errors"
	"io"
	"sync"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
)

// translate runs a job in one pass, in one worker:
//
//	read the document → units → batches → memory, then engine → render → store
//
// The read hands units over as it goes; batches are translated while the
// read goes on (several at once, bounded by the engine's concurrency); the
// render starts once the read has seen the whole document (the layout needs
// all of it) and writes each block as soon as its units are translated.
// Queues between the steps never block the read (units past a budget wait
// in a file), so memory is bounded and both cores are busy.
//
// Recovery needs no stored state between steps: every engine answer is in
// the translation memory before its batch is done, so a pass rerun after
// its worker died (the event redelivered) gets every segment translated
// before from the memory, with no engine call.
func (p *Pipeline) translate(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	a, err := p.Accounts.GetAccount(ctx, j.AccountID)
	if err != nil {
		return nil, err
	}
	if _, ok := language.ByCode(j.TargetLang); !ok {
		return nil, failf("unknown target language code %q", j.TargetLang)
	}
	counter, err := p.wordCounter(ctx, j, a.Limits())
	if err != nil {
		return nil, err
	}
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return nil, err
	}
	defer src.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	r := &run{p: p, j: j, dnt: a.DoNotTranslate, counter: counter,
		read: newUnitQueue(p.SpoolDir), done: newUnitQueue(p.SpoolDir), cancel: cancel, extractedOut: make(chan struct{})}
	defer func() { // the translation's goroutines end before the queues go
		cancel()
		r.wg.Wait()
		r.read.release()
		r.done.release()
	}()

	r.renderSource(ctx)
	given := j.SourceLang != "" && j.SourceLang != "auto"
	if given {
		l, _, err := p.sourceLanguage(j, "")
		if err != nil {
			return nil, err
		}
		r.source = l
		r.translateFrom(ctx) // while the document is read
	}
	doc, err := p.Docs.Read(ctx, src, r.extracted)
	r.read.close(nil)
	var f *Failure
	if errors.As(err, &f) {
		return nil, err
	}
	if err != nil {
		if r.failed() != nil {
			return nil, r.failed()
		}
		return nil, &Failure{Msg: "the document could not be read: " + err.Error()}
	}
	if err := r.settle(ctx, given); err != nil {
		return nil, err
	}
	if !given {
		r.translateFrom(ctx) // the language is known now
	}
	if err := r.progress(ctx, job.StageExtracted, ports.TopicExtracted, r.readFacts); err != nil {
		return nil, err
	}
	close(r.extractedOut)

	var kept *unitQueue // the translated units again, for the bilingual document
	if r.wantsBilingual() {
		kept = newUnitQueue(p.SpoolDir)
		defer kept.release()
	}
	rendered, err := r.render(ctx, doc, kept)
	if ferr := r.failed(); ferr != nil { // the translation's failure comes first
		return nil, ferr
	}
	if err != nil {
		if errors.Is(err, ports.ErrBadDocument) {
			return nil, &Failure{Msg: err.Error()}
		}
		return nil, err
	}
	pdf, pdfWarning, rendition, err := p.renderPDF(ctx, j)
	if err != nil {
		return nil, err
	}
	summary, err := r.measure(ctx, rendition)
	if err != nil {
		return nil, err
	}
	bi, biWarning, err := r.bilingual(ctx, src, doc, kept)
	if err != nil {
		return nil, err
	}
	res := r.result()
	return func(j *job.Job) {
		r.readFacts(j)
		j.Engine, j.Route = res.Engine, res.Route
		j.Metrics = res.Metrics
		for _, w := range res.Warnings {
			j.Warn(w)
		}
		for _, w := range rendered.Warnings {
			j.Warn(w)
		}
		j.RTL = rendered.RTL
		j.Structure = agree(rendered.Structure, rendered.StructureLost, summary)
		j.Review = summary
		if pdf != "" {
			j.PDF = pdf
		}
		if bi != "" {
			j.Bilingual = bi
		}
		for _, w := range []string{pdfWarning, biWarning} {
			if w != "" {
				j.Warn(w)
			}
		}
	}, nil
}

// run is one pass's state.
type run struct {
	p       *Pipeline
	j       *job.Job
	dnt     []string
	counter *wordCounter
	text    []byte // the plain text, kept only to detect the source language
	source  language.Language
	words   int
	warns   []string // learnt while reading

	read, done   *unitQueue    // units read, units translated
	extractedOut chan struct{} // closed once job_extracted is out
	carry        *segment.Unit // read, for the next batch
	cancel       func()
	wg           sync.WaitGroup

	mu  sync.Mutex
	err error // the first failure of the translation
	tr  translationState
	rv  reviewing
}

// extracted receives the units the read hands over: counted (the caps stop
// the read), kept for detection when the language is not given, queued for
// translation.
func (r *run) extracted(units []segment.Unit) error {
	if err := r.counter.add(units); err != nil {
		return err
	}
	if r.j.SourceLang == "" || r.j.SourceLang == "auto" {
		d := segment.Document{Units: units}
		r.text = append(r.text, d.PlainText()...)
	}
	return r.read.push(units)
}

// settle does what needs the whole document read: the source language
// (detected from its text when not given), whether the pair can be served,
// and the words reserved against the quota.
func (r *run) settle(ctx context.Context, given bool) error {
	p, j := r.p, r.j
	r.words = int(r.counter.words)
	if !given {
		l, warn, err := p.sourceLanguage(j, string(r.text))
		r.text = nil
		if err != nil {
			return err
		}
		r.source = l
		if warn != "" {
			r.warns = append(r.warns, warn)
		}
	}
	if r.words == 0 {
		r.warns = append(r.warns, "the document contains no translatable text")
	}
	if err := r.failed(); err != nil {
		return err
	}
	if r.words > 0 && r.source.Code != j.TargetLang {
		engines, err := p.Engines.Engines(ctx)
		if err != nil {
			return err
		}
		if !translate.Servable(engines, r.source.Code, j.TargetLang) {
			return failf("no configured engine translates %s to %s (the source language was %s)",
				r.source.Name, language.NameOf(j.TargetLang), detectedOrGiven(j))
		}
	}
	words := r.words
	a, err := p.Accounts.GetAccount(ctx, j.AccountID)
	if err != nil {
		return err
	}
	err = quota.Reserve(ctx, p.Quota, j.AccountID, j.ID, j.CreatedAt, int64(words), a.Limits().LimitWords)
	var short *quota.Short
	if errors.As(err, &short) {
		return &Failure{Msg: short.Error(), Apply: func(j *job.Job) { j.Words = words }}
	}
	return err
}

// readFacts records on the job what the read learnt.
func (r *run) readFacts(j *job.Job) {
	j.Words = r.words
	j.DetectedLang = r.source.Code
	for _, w := range r.warns {
		j.Warn(w)
	}
}

// progress records a phase the pass finished and announces it on the bus
// (subscribers, progress displays); a job that ended meanwhile (cancelled,
// given up) stops the pass.
func (r *run) progress(ctx context.Context, s job.Stage, t ports.Topic, apply func(*job.Job)) error {
	j, err := r.p.Jobs.UpdateJob(ctx, r.j.ID, func(j *job.Job) error {
		if apply != nil {
			apply(j)
		}
		return j.Advance(s, r.p.Clock.Now())
	})
	if err != nil {
		return err
	}
	return r.p.publish(ctx, t, j)
}

// fail records the translation's first failure and stops the pass.
func (r *run) fail(err error) {
	r.mu.Lock()
	if r.err == nil {
		r.err = err
	}
	r.mu.Unlock()
	r.cancel()
}

func (r *run) failed() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// render writes the output and the translated segments (for the XLIFF
// export and revisions) as the translated units come; with kept, each
// unit goes there too (closed once the render is done).
func (r *run) render(ctx context.Context, doc ports.Source, kept *unitQueue) (*ports.Rendered, error) {
	segs, closeSegs := r.p.store(ctx, job.SegmentsKey(r.j))
	enc := &docWriter{w: segs}
	enc.begin("docx")
	next := func() (*segment.Unit, error) {
		u, err := r.done.pop(ctx)
		if err != nil {
			return nil, err
		}
		if err := enc.unit(&u); err != nil {
			return nil, err
		}
		r.rendered(&u)
		if kept != nil {
			if err := kept.push([]segment.Unit{u}); err != nil {
				return nil, err
			}
		}
		return &u, nil
	}
	var rendered *ports.Rendered
	err := r.p.write(ctx, job.OutputKey(r.j), func(w io.Writer) (err error) {
		rendered, err = doc.Render(ctx, next, layoutRequest(r.j, r.source.Code), w)
		return err
	})
	// Units the render did not ask for (none, unless it failed) still
	// belong in the segments.
	for err == nil {
		u, perr := r.done.pop(ctx)
		if perr == io.EOF {
			break
		}
		if perr != nil {
			err = perr
			break
		}
		err = enc.unit(&u)
		if err == nil && kept != nil {
			err = kept.push([]segment.Unit{u})
		}
	}
	if kept != nil {
		kept.close(err)
	}
	if err == nil {
		err = enc.end()
	}
	if cerr := closeSegs(err); err == nil {
		err = cerr
	}
	return rendered, err
}

// layoutRequest is the direction conversion of the job's output.
func layoutRequest(j *job.Job, source string) ports.LayoutRequest {
	return ports.LayoutRequest{SourceLang: source, TargetLang: j.TargetLang}
}

// store starts storing what is written to the returned writer under key;
// finish closes it (with the writer's error, if any) and returns the
// store's.
func (p *Pipeline) store(ctx context.Context, key string) (io.Writer, func(error) error) {
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		_, err := p.Blobs.Put(ctx, key, pr)
		pr.CloseWithError(errors.New("store stopped reading"))
		done <- err
	}()
	bw := bufio.NewWriterSize(pw, 64<<10)
	return bw, func(werr error) error {
		if werr == nil {
			werr = bw.Flush()
		}
		pw.CloseWithError(werr)
		if err := <-done; err != nil {
			return err
		}
		return werr
	}
}

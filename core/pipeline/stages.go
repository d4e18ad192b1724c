package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/segment"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/core/wordcount"
	"github.com/dragoman-translate/dragoman/plugins/sdk/language"
	"github.com/dragoman-translate/dragoman/plugins/sdk/tagged"
)

// convert turns .doc, .odt and .rtf into .docx.
func (p *Pipeline) convert(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	if j.Format == "docx" {
		return nil, nil
	}
	if p.Converter == nil || !slices.Contains(p.Converter.Formats(), j.Format) {
		return nil, failf(".%s documents cannot be translated yet: no converter for this format is installed (the LibreOffice converter plugin, dragoman-converter-libreoffice)", j.Format)
	}
	in, err := p.Blobs.Open(ctx, key(j, "input"))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	err = p.write(ctx, job.SourceDocxKey(j.ID), func(w io.Writer) error { return p.Converter.Convert(ctx, j.Format, in, w) })
	if err != nil {
		if errors.Is(err, ports.ErrBadDocument) {
			return nil, failf("the .%s document could not be converted: %v", j.Format, err)
		}
		return nil, fmt.Errorf("conversion from .%s failed: %w", j.Format, err)
	}
	return nil, nil
}

// extract reads the text, counts words, settles the source language and
// reserves the words against the account's quota.
func (p *Pipeline) extract(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	a, err := p.Accounts.GetAccount(ctx, j.AccountID)
	if err != nil {
		return nil, err
	}
	c, err := p.wordCounter(ctx, j, a.Limits())
	if err != nil {
		return nil, err
	}
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	// The engine tells the counter what it reads, so a document over a cap
	// stops being read there (issue 15: a 200 MB part was read whole before
	// the cap refused it).
	doc, err := p.Docs.Extract(ports.WithExtractCheck(ctx, c.add), src)
	var f *Failure
	if errors.As(err, &f) {
		return nil, err
	}
	if err != nil {
		return nil, &Failure{Msg: "the document could not be read: " + err.Error()}
	}
	// An engine that does not call the check is counted afterwards.
	if err := c.add(doc.Units[min(c.units, len(doc.Units)):]); err != nil {
		return nil, err
	}
	words := int(c.words)

	target, ok := language.ByCode(j.TargetLang)
	if !ok {
		return nil, failf("unknown target language code %q", j.TargetLang)
	}
	var warnings []string
	var text string // a copy of every word: only where detection needs it
	if j.SourceLang == "" || j.SourceLang == "auto" {
		text = doc.PlainText()
	}
	source, warn, err := p.sourceLanguage(j, text)
	if err != nil {
		return nil, err
	}
	if warn != "" {
		warnings = append(warnings, warn)
	}
	if words > 0 && source.Code != target.Code {
		engines, err := p.Engines.Engines(ctx)
		if err != nil {
			return nil, err
		}
		if !translate.Servable(engines, source.Code, target.Code) {
			return nil, failf("no configured engine translates %s to %s (the source language was %s)", source.Name, target.Name, detectedOrGiven(j))
		}
	}
	if words == 0 {
		warnings = append(warnings, "the document contains no translatable text")
	}

	err = quota.Reserve(ctx, p.Quota, j.AccountID, j.ID, j.CreatedAt, int64(words), a.Limits().LimitWords)
	var short *quota.Short
	if errors.As(err, &short) {
		return nil, &Failure{Msg: short.Error(), Apply: func(j *job.Job) { j.Words = words }}
	}
	if err != nil {
		return nil, err
	}
	if err := p.putDoc(ctx, key(j, "segments.json"), doc); err != nil {
		return nil, err
	}
	return func(j *job.Job) {
		j.Words = words
		j.DetectedLang = source.Code
		for _, w := range warnings {
			j.Warn(w)
		}
	}, nil
}

// wordCounter counts a document's words segment by segment as extraction
// reads them (the sum is wordcount.Count of its plain text) and stops as
// soon as they pass what the account may still use: the words left this
// month or the plan's per-document cap, whichever is less. The job then
// fails right there (a 402-equivalent message for the quota), with the
// words counted so far on the job and nothing charged. Passing the plan's
// segment cap fails the same way.
func (p *Pipeline) wordCounter(ctx context.Context, j *job.Job, plan quota.Plan) (*wordCounter, error) {
	c := &wordCounter{plan: plan, stop: -1, left: -1}
	if plan.MaxDocumentWords > 0 {
		c.stop = plan.MaxDocumentWords
	}
	if plan.LimitWords != nil {
		used, err := p.Quota.Used(ctx, j.AccountID, quota.Period(j.CreatedAt))
		if err != nil {
			return nil, err
		}
		c.left = max(*plan.LimitWords-used, 0)
		if c.stop < 0 || c.left < c.stop {
			c.stop = c.left
		}
	}
	return c, nil
}

type wordCounter struct {
	plan       quota.Plan
	stop, left int64 // -1: no cap, unlimited
	units      int   // units counted
	segments   int64
	words      int64
}

// add counts units; it fails once a cap is passed.
func (c *wordCounter) add(units []segment.Unit) error {
	plan := c.plan
	// Segments first: they cost nothing to count.
	for _, u := range units {
		c.segments += int64(len(u.Segments))
	}
	if plan.MaxDocumentSegments > 0 && c.segments > plan.MaxDocumentSegments {
		return failf("reading stopped at %d segments, over the %s plan's cap of %d segments per document; nothing was charged",
			c.segments, plan.Name, plan.MaxDocumentSegments)
	}
	for _, u := range units {
		c.units++
		for _, s := range u.Segments {
			c.words += int64(wordcount.Count(tagged.Plain(s.Source)))
			if c.stop >= 0 && c.words > c.stop {
				counted := int(c.words)
				apply := func(j *job.Job) { j.Words = counted }
				if c.left >= 0 && c.stop == c.left {
					return &Failure{Apply: apply, Msg: fmt.Sprintf(
						"word quota exceeded: the document has more than %d words but only %d of this month's %d remain; counting stopped there and nothing was charged",
						c.left, c.left, *plan.LimitWords)}
				}
				return &Failure{Apply: apply, Msg: fmt.Sprintf(
					"the document has more than %d words, over the %s plan's cap of %d words per document; counting stopped there and nothing was charged",
					c.stop, plan.Name, c.stop)}
			}
		}
	}
	return nil
}

func detectedOrGiven(j *job.Job) string {
	if j.SourceLang == "auto" {
		return "detected"
	}
	return "given"
}

// sourceLanguage is the given source, or the detected one.
func (p *Pipeline) sourceLanguage(j *job.Job, text string) (language.Language, string, error) {
	if j.SourceLang != "" && j.SourceLang != "auto" {
		l, ok := language.ByCode(j.SourceLang)
		if !ok {
			return l, "", failf("unknown source language code %q", j.SourceLang)
		}
		return l, "", nil
	}
	if p.Detector == nil {
		return language.Language{}, "", failf("source_lang is auto but no language detector is configured: give source_lang")
	}
	sample := text
	mixer, weighs := p.Detector.(LanguageMix)
	if len(sample) > 20_000 && !weighs {
		sample = sample[:20_000]
	}
	code, conf := p.Detector.Detect(sample)
	if code == "" {
		if strings.TrimSpace(text) == "" {
			l, _ := language.ByCode("en") // nothing to translate; any source will do
			return l, "", nil
		}
		return language.Language{}, "", failf("the source language could not be detected: give source_lang")
	}
	l, ok := language.ByCode(code)
	if !ok {
		return l, "", failf("the detected source language %q is not supported", code)
	}
	var warn []string
	if conf < 0.5 {
		warn = append(warn, fmt.Sprintf("the source language was detected as %s with low confidence (%.0f%%); give source_lang if this is wrong", l.Name, conf*100))
	}
	if weighs {
		if w := mixWarning(mixer, text, l); w != "" {
			warn = append(warn, w)
		}
	}
	return l, strings.Join(warn, "; "), nil
}

// LanguageMix is implemented by detectors that weigh languages by script
// over the whole text (adapters/langdetect): the languages of text by their
// share of its letters, largest first.
type LanguageMix interface {
	Mix(text string) (codes []string, shares []float64)
}

// mixWarning names the other languages that hold at least a tenth of the
// text's letters: they were translated as if they were the source.
func mixWarning(m LanguageMix, text string, source language.Language) string {
	codes, shares := m.Mix(text)
	var parts []string
	for i, c := range codes {
		l, ok := language.ByCode(c)
		if !ok || shares[i] < 0.1 {
			continue
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", l.Name, shares[i]*100))
	}
	if len(parts) < 2 {
		return ""
	}
	return fmt.Sprintf("the document mixes languages (%s by letters); it was translated as %s: give source_lang or split the document if this is wrong", strings.Join(parts, ", "), source.Name)
}

// translate sends the segments to the engine.
func (p *Pipeline) translate(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	doc, err := p.getDoc(ctx, key(j, "segments.json"))
	if err != nil {
		return nil, err
	}
	src, tgt := j.DetectedLang, j.TargetLang // codes, as the engines take them
	var res translate.Result
	if src == tgt || j.Words == 0 {
		doc.EachSegment(func(_ *segment.Unit, s *segment.Segment) { s.Target = s.Source })
		res.Engine = "none"
	} else {
		a, err := p.Accounts.GetAccount(ctx, j.AccountID)
		if err != nil {
			return nil, err
		}
		g, err := p.glossary(ctx, j)
		if err != nil {
			return nil, err
		}
		res, err = p.translateRemembering(ctx, j, doc, src, tgt, translate.Options{DoNotTranslate: a.DoNotTranslate, Glossary: g})
		var ee *translate.EngineError
		switch {
		case errors.As(err, &ee):
			return nil, &Failure{Msg: ee.Error()}
		case errors.Is(err, translate.ErrNoRoute):
			return nil, failf("no configured engine translates %s to %s", language.NameOf(src), language.NameOf(tgt))
		case err != nil:
			return nil, err
		}
	}
	if err := p.putDoc(ctx, job.SegmentsKey(j.ID), doc); err != nil {
		return nil, err
	}
	return func(j *job.Job) {
		j.Engine, j.Route = res.Engine, res.Route
		j.Metrics = res.Metrics
		for _, w := range res.Warnings {
			j.Warn(w)
		}
	}, nil
}

// assemble writes the translated text back into a copy of the document:
// in memory, for the layout stage to write (handoff.go), or as
// assembled.docx.
func (p *Pipeline) assemble(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	if asm := p.inMemory(); asm != nil {
		h, warnings, err := p.assembleInMemory(ctx, asm, j)
		if err != nil {
			return nil, err
		}
		p.held.put(j.ID, h)
		return func(j *job.Job) {
			for _, w := range warnings {
				j.Warn(w)
			}
		}, nil
	}
	doc, err := p.getDoc(ctx, job.SegmentsKey(j.ID))
	if err != nil {
		return nil, err
	}
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return nil, err
	}
	defer src.Close()
	warnings, err := p.output().Assemble(ctx, src, doc, key(j, "assembled.docx"))
	if err != nil {
		return nil, err
	}
	return func(j *job.Job) {
		for _, w := range warnings {
			j.Warn(w)
		}
	}, nil
}

// layout converts direction where the document or the target has
// right-to-left content, and checks the output's structure against the
// source.
func (p *Pipeline) layout(ctx context.Context, j *job.Job) (func(*job.Job), error) {
	// The layout decides from the document too (RTL paragraphs, tables or
	// letters in a document detected as an LTR language), so it sees every
	// job; it copies a document with nothing right to left unchanged.
	fid, err := p.layOut(ctx, j)
	if err != nil {
		return nil, err
	}
	var summary string
	if p.Structure != nil {
		if s, err := p.checkStructure(ctx, j); err == nil {
			summary = s
		}
	}
	pdf, warning, err := p.renderPDF(ctx, j)
	if err != nil {
		return nil, err
	}
	bi, biWarning, err := p.renderBilingual(ctx, j)
	if err != nil {
		return nil, err
	}
	return func(j *job.Job) {
		j.RTL = fid
		j.Structure = summary
		if pdf != "" {
			j.PDF = pdf
		}
		if bi != "" {
			j.Bilingual = bi
		}
		for _, w := range []string{warning, biWarning} {
			if w != "" {
				j.Warn(w)
			}
		}
	}, nil
}

// layOut writes the job's output from the document held in memory or
// from assembled.docx.
func (p *Pipeline) layOut(ctx context.Context, j *job.Job) (*job.RTLReport, error) {
	if asm := p.inMemory(); asm != nil {
		return p.layoutHeld(ctx, asm, j)
	}
	in, err := p.Blobs.Open(ctx, key(j, "assembled.docx"))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return p.output().LayOut(ctx, in, layoutRequest(j), job.OutputKey(j.ID))
}

// layoutRequest is the direction conversion of the job's output.
func layoutRequest(j *job.Job) ports.LayoutRequest {
	return ports.LayoutRequest{SourceLang: j.DetectedLang, TargetLang: j.TargetLang}
}

func (p *Pipeline) checkStructure(ctx context.Context, j *job.Job) (string, error) {
	src, err := p.Blobs.Open(ctx, sourceKey(j))
	if err != nil {
		return "", err
	}
	defer src.Close()
	out, err := p.Blobs.Open(ctx, job.OutputKey(j.ID))
	if err != nil {
		return "", err
	}
	defer out.Close()
	s, _, err := p.Structure.Summary(ctx, src, out)
	return s, err
}

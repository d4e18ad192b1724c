package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

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

// sourceLanguage is the given source, the one detected for the job at
// its submission (a batch's jobs share the batch's: DetectedLang), or the
// one detected from text.
func (p *Pipeline) sourceLanguage(j *job.Job, text string) (language.Language, string, error) {
	if code := knownSource(j); code != "" {
		l, ok := language.ByCode(code)
		if !ok {
			return l, "", failf("unknown source language code %q", code)
		}
		return l, "", nil
	}
	l, warn, err := translate.DetectSource(p.Detector, text)
	if err != nil {
		return l, "", failf("%s", err)
	}
	return l, warn, nil
}

// knownSource is the code of a job's source language known before its
// document is read: given, or detected at submission; "" when the pass
// must detect it.
func knownSource(j *job.Job) string {
	if j.SourceLang != "" && j.SourceLang != "auto" {
		return j.SourceLang
	}
	return j.DetectedLang
}

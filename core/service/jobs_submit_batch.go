package service

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/translate"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// Batch is the jobs of one submission: one per target (target_langs), for
// each document (the documents of a .zip).
type Batch struct {
	ID        string
	CreatedAt time.Time
	Jobs      []*Accepted
	Skipped   []string // entries of a .zip that are not documents
}

// Submission is what an upload became: one job, or a batch.
type Submission struct {
	Job   *Accepted
	Batch *Batch
}

// QueueUpload turns an upload into one job (Queue) or, when r names
// several targets (TargetLangs) or the upload is a .zip of documents, into
// a batch (see queueBatch). On any error the upload is deleted.
func (s *Jobs) QueueUpload(ctx context.Context, c *Caller, up *Upload, r SubmitRequest) (*Submission, error) {
	zb := s.openBundle(ctx, up)
	if len(r.TargetLangs) > 0 || zb != nil {
		return s.queueBatch(ctx, c, up, zb, r)
	}
	acc, err := s.Queue(ctx, c, up, r)
	if err != nil {
		return nil, err
	}
	return &Submission{Job: acc}, nil
}

// queueBatch makes the jobs of a batch from one upload: the document is
// read once (converted, counted, its language detected), the quota is
// checked for every target before any job exists (402 when the words of
// all do not fit), then one pending job per document and target is made,
// each with its own copy of the document, and each announced (or held).
func (s *Jobs) queueBatch(ctx context.Context, c *Caller, up *Upload, zb *bundleUpload, r SubmitRequest) (sub *Submission, err error) {
	defer zb.Close()
	docs := []named{{up: up, name: r.name()}}
	defer func() { s.discardAll(context.WithoutCancel(ctx), docs) }() // the jobs have their copies
	targets, err := s.batchOptions(ctx, c, r)
	if err != nil {
		return nil, err
	}
	b := &Batch{ID: s.NewID(), CreatedAt: s.Clock.Now()}
	if docs, b.Skipped, err = s.submissionDocs(ctx, up, zb, r.name(), len(targets)); err != nil {
		return nil, err
	}
	var readings []*reading
	words := 0
	for _, d := range docs {
		rd, err := s.read(ctx, d.up, d.name, targets[0])
		if err != nil {
			return nil, err
		}
		if err := s.checkWords(c, rd); err != nil {
			return nil, err
		}
		if err := s.checkReadPairs(ctx, rd, targets); err != nil {
			return nil, err
		}
		readings = append(readings, rd)
		words += rd.words * len(targets)
	}
	if err := s.checkBatchQuota(ctx, c, words, len(docs), len(targets)); err != nil {
		return nil, err
	}
	for _, rd := range readings {
		for _, o := range targets {
			acc, err := s.batchJob(ctx, c, rd, r, o, b.ID)
			if err != nil {
				s.dropBatch(context.WithoutCancel(ctx), b)
				return nil, err
			}
			b.Jobs = append(b.Jobs, acc)
		}
	}
	for _, acc := range b.Jobs {
		if !acc.Job.Held() {
			s.announce(ctx, acc.Job)
		}
	}
	return &Submission{Batch: b}, nil
}

// batchOptions parses every target with the request's source and mode,
// once each, and checks each pair a given source makes.
func (s *Jobs) batchOptions(ctx context.Context, c *Caller, r SubmitRequest) ([]Options, error) {
	names, listed := r.TargetLangs, len(r.TargetLangs) > 0
	if !listed {
		names = []string{r.TargetLang} // "" is the default target, as for one job
	}
	var out []Options
	seen := map[string]bool{}
	for _, name := range names {
		if listed && strings.TrimSpace(name) == "" {
			continue
		}
		o, err := ParseOptions(name, r.SourceLang, r.Mode)
		if err != nil {
			return nil, err
		}
		if seen[o.Target.Code] {
			continue
		}
		seen[o.Target.Code] = true
		if err := s.checkPair(ctx, o); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	switch {
	case len(out) == 0:
		return nil, fail(KindUnprocessable, "target_langs: no target language given")
	case len(out) > MaxBatchTargets:
		return nil, fail(KindUnprocessable, "target_langs: %d targets, over the %d of one submission", len(out), MaxBatchTargets)
	case r.GlossaryID != "" && len(out) > 1:
		return nil, fail(KindUnprocessable, "glossary_id: a glossary serves one language pair; submit the other targets without it")
	}
	if r.GlossaryID != "" {
		id, err := s.checkGlossary(ctx, c, out[0], r.GlossaryID)
		if err != nil {
			return nil, err
		}
		out[0].GlossaryID = id
	}
	return out, nil
}

// checkReadPairs refuses, before any job exists, a detected source that
// no engine translates to one of the targets.
func (s *Jobs) checkReadPairs(ctx context.Context, rd *reading, targets []Options) error {
	if rd.source == nil || rd.words == 0 || s.Engines == nil {
		return nil
	}
	engines, err := s.Engines.Engines(ctx)
	if err != nil {
		return enginesUnavailable(err)
	}
	for _, o := range targets {
		if rd.source.Code != o.Target.Code && !translate.Servable(engines, rd.source.Code, o.Target.Code) {
			return fail(KindUnprocessable, "%s: no configured engine translates %s to %s (the source language was %s); see GET /v1/languages?source=%s",
				rd.name, rd.source.Name, o.Target.Name, givenOrDetected(o), rd.source.Code)
		}
	}
	return nil
}

func givenOrDetected(o Options) string {
	if o.Source != nil {
		return "given"
	}
	return "detected"
}

// checkWords refuses a document over the plan's per-document cap, which
// its jobs would fail at.
func (s *Jobs) checkWords(c *Caller, rd *reading) error {
	plan := c.Account.Limits()
	if plan.MaxDocumentWords > 0 && int64(rd.words) > plan.MaxDocumentWords {
		return fail(KindUnprocessable, "%s has %d words, over the %s plan's cap of %d words per document", rd.name, rd.words, plan.Name, plan.MaxDocumentWords)
	}
	return nil
}

// checkBatchQuota is the quota check of a batch: the words of every job
// must fit in what is left of the month, or nothing starts (402).
func (s *Jobs) checkBatchQuota(ctx context.Context, c *Caller, words, docs, targets int) error {
	limit := c.Account.Limits().LimitWords
	if limit == nil {
		return nil
	}
	used, err := s.Quota.Used(ctx, c.Account.ID, quota.Period(s.Clock.Now()))
	if err != nil {
		return err
	}
	left := max(*limit-used, 0)
	if int64(words) <= left {
		return nil
	}
	what := fmt.Sprintf("%d targets", targets)
	if docs > 1 {
		what = fmt.Sprintf("%d documents to %d targets", docs, targets)
	}
	return fail(KindQuota, "word quota: %s need %d words, but only %d of this month's %d remain; no job was started and nothing was charged", what, words, left, *limit)
}

// batchJob makes one job of a batch from its own copy of the read document,
// with the language the batch detected: its pass does not detect again.
func (s *Jobs) batchJob(ctx context.Context, c *Caller, rd *reading, r SubmitRequest, o Options, batchID string) (*Accepted, error) {
	id := s.NewID()
	src, err := s.Blobs.Open(ctx, rd.key)
	if err != nil {
		return nil, err
	}
	defer src.Close()
	if _, err := s.Blobs.Put(ctx, job.InputKey(id), src); err != nil {
		return nil, err
	}
	in, err := s.Blobs.Open(ctx, job.InputKey(id))
	if err != nil {
		return nil, err
	}
	defer in.Close()
	acc, err := s.create(ctx, c, id, rd.name, docformat.DOCX, in, r, o, func(j *job.Job) {
		j.BatchID = batchID
		if o.Source == nil && rd.source != nil {
			j.DetectedLang = rd.source.Code
			if rd.detectWarning != "" {
				j.Warn(rd.detectWarning)
			}
		}
	})
	if err != nil {
		_ = s.Blobs.DeletePrefix(context.WithoutCancel(ctx), job.Prefix(id))
	}
	return acc, err
}

// dropBatch deletes the jobs made so far of a batch that could not be
// made whole; none was announced yet.
func (s *Jobs) dropBatch(ctx context.Context, b *Batch) {
	for _, acc := range b.Jobs {
		_ = s.Blobs.DeletePrefix(ctx, job.Prefix(acc.Job.ID))
		if s.JobCatalog != nil {
			_ = s.JobCatalog.DeleteJob(ctx, acc.Job.ID)
		}
	}
}

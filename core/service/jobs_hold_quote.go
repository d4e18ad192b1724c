package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/plugins/sdk/docformat"
)

// HoldAndQuote submits an upload held (QueueUpload with hold) and quotes
// it from the stored jobs, so a person sees the cost of one upload before
// confirming it (ConfirmJob) or cancelling it (CancelJob); nothing is
// charged until then. The dashboard uses it for large documents and tight
// quotas.
func (s *Jobs) HoldAndQuote(ctx context.Context, c *Caller, up *Upload, r SubmitRequest) (*Submission, *Quote, error) {
	r.Hold = true
	sub, err := s.QueueUpload(ctx, c, up, r)
	if err != nil {
		return nil, nil, err
	}
	return s.quoteHeld(ctx, c, sub, r)
}

// HoldAndQuoteURL is HoldAndQuote for a document fetched from a URL
// (SubmitURL with hold): fetched once, held, quoted.
func (s *Jobs) HoldAndQuoteURL(ctx context.Context, c *Caller, rawURL string, r SubmitRequest) (*Submission, *Quote, error) {
	r.Hold = true
	sub, err := s.SubmitURL(ctx, c, rawURL, r)
	if err != nil {
		return nil, nil, err
	}
	return s.quoteHeld(ctx, c, sub, r)
}

// quoteHeld quotes the held jobs of a submission from their stored inputs.
func (s *Jobs) quoteHeld(ctx context.Context, c *Caller, sub *Submission, r SubmitRequest) (*Submission, *Quote, error) {
	jobs := []*Accepted{sub.Job}
	if sub.Batch != nil {
		jobs = sub.Batch.Jobs
	}
	targets, err := s.batchOptions(ctx, c, r)
	if err != nil {
		return sub, nil, err
	}
	// One job per document: the first target's (each document's jobs
	// follow each other, one per target).
	var docs []named
	for i := 0; i < len(jobs); i += len(targets) {
		j := jobs[i].Job
		docs = append(docs, named{up: &Upload{ID: j.ID, Key: job.InputKey(j.ID), Format: docformat.Format(j.Format)}, name: j.OriginalName})
	}
	q, err := s.quoteDocs(ctx, c, docs, targets)
	return sub, q, err
}

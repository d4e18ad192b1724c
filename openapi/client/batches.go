package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Models of batches, holds and quotes.
type (
	Batch         = gen.BatchStatus
	BatchAccepted = gen.BatchAccepted
	Quote         = gen.QuoteOut
)

// BatchResult is a finished batch: one Result per job, in the batch's
// order (for each document, each target), with the error of each job that
// failed or could not be downloaded.
type BatchResult struct {
	BatchID string
	Results []*Result
	Errors  []error // nil where the job's Result is whole
	// Skipped are the entries of a .zip that are not documents and made
	// no job (a picture, a .zip inside it).
	Skipped []string
}

// Err is the first error of the batch's jobs, or nil.
func (r *BatchResult) Err() error { return errors.Join(r.Errors...) }

// SubmitBatch uploads the document at path (or a .zip of documents) to
// every target of opts.Targets (or opts.To) at once and returns the batch.
// Without a target it sends nothing and answers errNoTarget.
func (c *Client) SubmitBatch(ctx context.Context, path string, opts Options) (*BatchAccepted, error) {
	opts, err := batchTargets(opts)
	if err != nil {
		return nil, err
	}
	b, err := c.upload(ctx, path, opts)
	if b == nil {
		return nil, err
	}
	var acc BatchAccepted
	if uerr := acceptedBatch(&acc, json.Unmarshal(b, &acc)); uerr != nil {
		return nil, uerr
	}
	return &acc, err
}

// errNoTarget refuses a batch without a target. The server would make one
// job to its default target (Arabic), not a batch: the helper could not
// return it, and it would run and be charged unseen.
var errNoTarget = errors.New("dragoman: a batch needs its target languages: set Options.Targets (or Options.To for one); nothing was sent")

// batchTargets is opts as a batch sends it: Targets, or To as the one
// target; neither is errNoTarget.
func batchTargets(opts Options) (Options, error) {
	if len(opts.Targets) == 0 && opts.To != "" {
		opts.Targets = []string{opts.To}
	}
	if len(opts.Targets) == 0 {
		return opts, errNoTarget
	}
	return opts, nil
}

// acceptedBatch checks the server's 202 answer to a batch, read into acc
// with error err.
func acceptedBatch(acc *BatchAccepted, err error) error {
	if err != nil {
		return fmt.Errorf("dragoman: reading the accepted batch: %w", err)
	}
	if len(jobsOf(acc)) == 0 {
		return errors.New("dragoman: the server's answer is not a batch: it lists no job")
	}
	return nil
}

// TranslateBatch submits a batch (SubmitBatch), waits for each job and
// downloads each translation into opts.OutDir (default: the input's
// folder) as NAME.<code>.docx. A failed job does not stop the others: its
// error is in BatchResult.Errors. When ctx ends, the unfinished jobs are
// cancelled unless opts.KeepOnCancel.
func (c *Client) TranslateBatch(ctx context.Context, path string, opts Options) (*BatchResult, error) {
	if opts.Hold {
		return nil, errHoldWaits
	}
	acc, err := c.SubmitBatch(ctx, path, opts)
	if err != nil {
		if acc != nil {
			for _, j := range jobsOf(acc) {
				c.cancelStarted(ctx, j.JobId.String(), opts)
			}
		}
		return nil, err
	}
	res := &BatchResult{BatchID: acc.BatchId.String()}
	if acc.Skipped != nil {
		res.Skipped = *acc.Skipped
	}
	for _, j := range jobsOf(acc) {
		r, err := c.finish(ctx, j.JobId.String(), filepath.Dir(path), opts)
		if ctx.Err() != nil {
			for _, rest := range jobsOf(acc)[len(res.Results):] {
				c.cancelStarted(ctx, rest.JobId.String(), opts)
			}
			return res, ctx.Err()
		}
		if r == nil {
			r = &Result{}
		}
		res.Results = append(res.Results, r)
		res.Errors = append(res.Errors, err)
	}
	return res, nil
}

// jobsOf is a batch's jobs (the contract's arrays may be null).
func jobsOf(acc *BatchAccepted) []gen.JobAccepted {
	if acc == nil || acc.Jobs == nil {
		return nil
	}
	return *acc.Jobs
}

// Batch reads a batch with the status of each of its jobs.
func (c *Client) Batch(ctx context.Context, id string) (*Batch, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return nil, &APIError{Status: 404, Code: "not_found", Message: "batch " + id + " not found: not a batch id"}
	}
	r, err := c.API.GetBatchWithResponse(ctx, u)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// Confirm starts a job submitted with Hold.
func (c *Client) Confirm(ctx context.Context, id string) (*Job, error) {
	u, err := jobID(id)
	if err != nil {
		return nil, err
	}
	r, err := c.API.ConfirmJobWithResponse(ctx, u)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// QuoteFile asks what translating the document at path (or a .zip) with
// opts would cost, without making a job: words, segments in memory, engine
// characters and route per target, estimated time, quota left after.
func (c *Client) QuoteFile(ctx context.Context, path string, opts Options) (*Quote, error) {
	b, err := c.submitOnce(ctx, path, opts, c.API.QuoteWithBody)
	if err != nil {
		return nil, err
	}
	var q Quote
	if err := json.Unmarshal(b, &q); err != nil {
		return nil, fmt.Errorf("dragoman: reading the quote: %w", err)
	}
	return &q, nil
}

// QuoteURL is QuoteFile for a document the server fetches.
func (c *Client) QuoteURL(ctx context.Context, url string, opts Options) (*Quote, error) {
	r, err := c.API.QuoteWithResponse(ctx, urlBody(url, opts))
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

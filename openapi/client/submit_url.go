package client

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// errHoldWaits refuses Options.Hold in the helpers that wait for the
// translation: a held job only starts once confirmed.
var errHoldWaits = errors.New("dragoman: Options.Hold keeps the job waiting for Confirm: submit it with Submit, SubmitBatch, SubmitURL or SubmitBatchURL, then Confirm it")

// SubmitURL asks the server to fetch the document at url and returns the
// accepted job without waiting for it (with Options.Hold, it waits for
// Confirm). Several targets make a batch: SubmitBatchURL.
func (c *Client) SubmitURL(ctx context.Context, url string, opts Options) (*gen.JobAcceptedURL, error) {
	opts.Targets = nil
	b, err := c.postURL(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	acc, err := b.AsJobAcceptedURL()
	if err != nil {
		return nil, fmt.Errorf("dragoman: reading the accepted job: %w", err)
	}
	if acc.JobId == uuid.Nil { // a batch: the URL holds a .zip of documents
		return nil, c.refuseBatch(ctx, b)
	}
	return &acc, nil
}

// SubmitBatchURL is SubmitBatch for a document the server fetches: one
// job per target of opts.Targets (or opts.To), as a batch.
func (c *Client) SubmitBatchURL(ctx context.Context, url string, opts Options) (*BatchAccepted, error) {
	opts, err := batchTargets(opts)
	if err != nil {
		return nil, err
	}
	b, err := c.postURL(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	acc, err := b.AsBatchAccepted()
	if err := acceptedBatch(&acc, err); err != nil {
		return nil, err
	}
	return &acc, nil
}

func (c *Client) postURL(ctx context.Context, url string, opts Options) (*gen.TranslateUrl202JSONResponseBody, error) {
	r, err := c.API.TranslateUrlWithResponse(ctx, urlBody(url, opts))
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON202, nil
}

// urlBody is the JSON body of POST /translate-url (and of a quote) for opts.
func urlBody(url string, opts Options) gen.TranslateURLInputBody {
	body := gen.TranslateURLInputBody{Url: url}
	set := func(dst **string, v string) {
		if v != "" {
			*dst = &v
		}
	}
	set(&body.TargetLang, opts.To)
	set(&body.SourceLang, opts.From)
	set(&body.GlossaryId, opts.GlossaryID)
	if opts.Mode != "" {
		m := gen.TranslateURLInputBodyTranslationMode(opts.Mode)
		body.TranslationMode = &m
	}
	if len(opts.Targets) > 0 {
		body.TargetLangs = &opts.Targets
	}
	for _, b := range []struct {
		on  bool
		dst **bool
	}{{opts.PDF, &body.Pdf}, {opts.Hold, &body.Hold}, {opts.Bilingual, &body.Bilingual}} {
		if b.on {
			on := true
			*b.dst = &on
		}
	}
	return body
}

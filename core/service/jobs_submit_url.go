package service

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"
)

// TooLarge is implemented by errors that mean the document exceeded the cap.
type TooLarge interface{ TooLarge() bool }

// SubmitURL fetches a document through the SSRF-safe fetcher and submits
// it with the options of r (target, source, mode, pdf, glossary); r's name
// and body come from the fetch, which streams straight into the blob
// store. Several targets, or a .zip of documents, make a batch, as an
// upload does. The options and the quota are checked once, before any
// network traffic.
func (s *Jobs) SubmitURL(ctx context.Context, c *Caller, rawURL string, r SubmitRequest) (*Submission, error) {
	u, err := s.checkURL(rawURL)
	if err != nil {
		return nil, err
	}
	if len(r.TargetLangs) > 0 {
		if err := checkQuota(ctx, s.Quota, s.Clock, c); err != nil {
			return nil, err
		}
		if _, err := s.batchOptions(ctx, c, r); err != nil {
			return nil, err
		}
		up, err := s.receiveURL(ctx, u, &r)
		if err != nil {
			return nil, err
		}
		return s.queueBatch(ctx, c, up, s.openBundle(ctx, up), r)
	}
	opts, err := s.validate(ctx, c, r.TargetLang, r.SourceLang, r.Mode)
	if err != nil {
		return nil, err
	}
	if opts.GlossaryID, err = s.checkGlossary(ctx, c, opts, r.GlossaryID); err != nil {
		return nil, err
	}
	up, err := s.receiveURL(ctx, u, &r)
	if err != nil {
		return nil, err
	}
	if zb := s.openBundle(ctx, up); zb != nil {
		return s.queueBatch(ctx, c, up, zb, r)
	}
	acc, err := s.queue(ctx, c, up, r, opts)
	if err != nil {
		return nil, err
	}
	return &Submission{Job: acc}, nil
}

// checkURL accepts absolute https URLs (http too where private URLs are
// allowed, for tests and local development).
func (s *Jobs) checkURL(rawURL string) (*url.URL, error) {
	if s.Fetcher == nil {
		return nil, fail(KindUnavailable, "translate-url is not available on this server")
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || !u.IsAbs() || u.Host == "" {
		return nil, fail(KindBadURL, "url: not an absolute URL")
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && s.Config.AllowPrivateURLs) {
		return nil, fail(KindBadURL, "url: only https URLs are fetched")
	}
	return u, nil
}

// receiveURL streams the document at u into the blob store (Receive) and
// sets r's name from the fetch; format errors are 400.
func (s *Jobs) receiveURL(ctx context.Context, u *url.URL, r *SubmitRequest) (*Upload, error) {
	pr, pw := io.Pipe()
	var (
		name     string
		fetchErr error
		done     = make(chan struct{})
	)
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(done)
		name, fetchErr = s.Fetcher.Fetch(fctx, u.String(), pw, s.Config.MaxUpload)
		pw.CloseWithError(fetchErr)
	}()
	up, err := s.Receive(ctx, pr, true)
	pr.CloseWithError(errSubmissionEnded)
	cancel()
	<-done
	if fetchErr != nil && !errors.Is(fetchErr, errSubmissionEnded) {
		if up != nil {
			s.Discard(ctx, up)
		}
		var tl TooLarge
		if errors.As(fetchErr, &tl) && tl.TooLarge() {
			return nil, fail(KindTooLarge, "the document at the URL is larger than %d MB", s.Config.MaxUpload>>20)
		}
		return nil, &Error{Kind: KindBadURL, Message: "url: " + fetchErr.Error(), Err: fetchErr}
	}
	if err != nil {
		return nil, err
	}
	r.Name, r.FromURL = name, true
	return up, nil
}

// errSubmissionEnded stops a fetch whose document is no longer wanted.
var errSubmissionEnded = errors.New("submission ended before the download")

package service

import (
	"context"
	"errors"
	"io"
	"net/url"
	"strings"
	"sync"
)

// TooLarge is implemented by errors that mean the document exceeded the cap.
type TooLarge interface{ TooLarge() bool }

// SubmitURLRequest fetches a document through the SSRF-safe fetcher and
// submits it with the options of r (target, source, mode, pdf, glossary);
// r's name and body come from the fetch. The download streams straight
// into the blob store.
func (s *Jobs) SubmitURLRequest(ctx context.Context, c *Caller, rawURL string, r SubmitRequest) (*Accepted, error) {
	target, source, mode := r.TargetLang, r.SourceLang, r.Mode
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
	// Validate once, before any network traffic.
	opts, err := s.validate(ctx, c, target, source, mode)
	if err != nil {
		return nil, err
	}
	if opts.GlossaryID, err = s.checkGlossary(ctx, c, opts, r.GlossaryID); err != nil {
		return nil, err
	}

	pr, pw := io.Pipe()
	var (
		mu       sync.Mutex
		name     string
		fetchErr error
		done     = make(chan struct{})
	)
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(done)
		n, err := s.Fetcher.Fetch(fctx, u.String(), pw, s.Config.MaxUpload)
		mu.Lock()
		name, fetchErr = n, err
		mu.Unlock()
		pw.CloseWithError(err)
	}()
	acc, err := s.submit(ctx, c, SubmitRequest{
		Body: pr, FromURL: true, JobOptions: r.JobOptions,
		NameFn: func() string { mu.Lock(); defer mu.Unlock(); return name },
	}, opts)
	pr.CloseWithError(errSubmissionEnded)
	cancel()
	<-done
	if fetchErr != nil && !errors.Is(fetchErr, errSubmissionEnded) {
		var tl TooLarge
		if errors.As(fetchErr, &tl) && tl.TooLarge() {
			return nil, fail(KindTooLarge, "the document at the URL is larger than %d MB", s.Config.MaxUpload>>20)
		}
		return nil, &Error{Kind: KindBadURL, Message: "url: " + fetchErr.Error(), Err: fetchErr}
	}
	return acc, err
}

// errSubmissionEnded stops a fetch whose document is no longer wanted.
var errSubmissionEnded = errors.New("submission ended before the download")

package ports

import (
	"context"
	"io"
	"time"
)

// RateLimiter enforces a per-key request rate.
type RateLimiter interface {
	// Allow counts one request against limit per minute and says whether it
	// may pass; when not, retryAfter is how long until one would.
	Allow(ctx context.Context, key string, limit int) (ok bool, retryAfter time.Duration, err error)
}

// URLFetcher downloads a document from a user-given URL, refusing
// addresses that would reach inside the service's network.
type URLFetcher interface {
	// Fetch writes at most max bytes of the document at url to dst and
	// returns the file name the URL suggests.
	Fetch(ctx context.Context, url string, dst io.Writer, max int64) (name string, err error)
}

// LanguageDetector guesses the language of a text.
type LanguageDetector interface {
	// Detect returns an ISO code and a confidence in [0,1]; "" if unknown.
	Detect(text string) (code string, confidence float64)
}

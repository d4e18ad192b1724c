package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Client calls one Dragoman server with one API key.
type Client struct {
	// API is the generated client, for operations this layer does not wrap.
	API *gen.ClientWithResponses
	// Server is the base address of the contract, ending in /v1.
	Server string
	key    string
	http   *http.Client
	// OnRateLimit, if set, is told before every wait a 429 imposes.
	OnRateLimit func(wait time.Duration)
	// PollInterval is the first wait between status polls; it grows to 5 s.
	// Zero means the contract's 2 s.
	PollInterval time.Duration
	// MaxRateLimitWaits bounds how many 429 answers one call waits out
	// before returning ErrRateLimited; zero means 10.
	MaxRateLimitWaits int
}

// Option configures New.
type Option func(*settings) error

type settings struct {
	http   *http.Client
	caFile string
}

// WithHTTPClient sends requests through h.
func WithHTTPClient(h *http.Client) Option {
	return func(s *settings) error { s.http = h; return nil }
}

// WithCACertFile trusts the PEM certificate(s) in path besides the system
// roots, e.g. the self-signed certificate of a development server
// (<data dir>/tls/cert.pem).
func WithCACertFile(path string) Option {
	return func(s *settings) error { s.caFile = path; return nil }
}

// New is a client of the server at server ("https://host:8443"; "/v1" is
// added when missing) using API key key.
func New(server, key string, opts ...Option) (*Client, error) {
	var s settings
	for _, o := range opts {
		if err := o(&s); err != nil {
			return nil, err
		}
	}
	if s.http == nil {
		s.http = &http.Client{Transport: http.DefaultTransport.(*http.Transport).Clone()}
	}
	if s.caFile != "" {
		pem, err := os.ReadFile(s.caFile)
		if err != nil {
			return nil, fmt.Errorf("dragoman: CA certificate: %w", err)
		}
		pool, err := x509.SystemCertPool()
		if err != nil || pool == nil {
			pool = x509.NewCertPool()
		}
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("dragoman: no certificate in %s", s.caFile)
		}
		tr, ok := s.http.Transport.(*http.Transport)
		if !ok || tr == nil {
			tr = http.DefaultTransport.(*http.Transport).Clone()
		}
		tr = tr.Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
		h := *s.http
		h.Transport = tr
		s.http = &h
	}
	server = strings.TrimRight(strings.TrimSpace(server), "/")
	if server == "" {
		return nil, errors.New("dragoman: no server address (DRAGOMAN_URL)")
	}
	if !strings.HasSuffix(server, "/v1") {
		server += "/v1"
	}
	c := &Client{Server: server, key: key, http: s.http}
	api, err := gen.NewClientWithResponses(server, gen.WithHTTPClient(doer{c}),
		gen.WithRequestEditorFn(func(_ context.Context, r *http.Request) error {
			if c.key != "" {
				r.Header.Set("X-API-Key", c.key)
			}
			return nil
		}))
	if err != nil {
		return nil, err
	}
	c.API = api
	return c, nil
}

// FromEnv is New with DRAGOMAN_URL (default https://localhost:8443),
// DRAGOMAN_KEY and, when set, DRAGOMAN_CA (a PEM file to trust).
func FromEnv(opts ...Option) (*Client, error) {
	server := os.Getenv("DRAGOMAN_URL")
	if server == "" {
		server = "https://localhost:8443"
	}
	if ca := os.Getenv("DRAGOMAN_CA"); ca != "" {
		opts = append([]Option{WithCACertFile(ca)}, opts...)
	}
	return New(server, os.Getenv("DRAGOMAN_KEY"), opts...)
}

// doer sends requests and waits out 429 answers as Retry-After says, for
// requests whose body can be sent again.
type doer struct{ c *Client }

func (d doer) Do(req *http.Request) (*http.Response, error) {
	max := d.c.MaxRateLimitWaits
	if max <= 0 {
		max = 10
	}
	for i := 0; ; i++ {
		resp, err := d.c.http.Do(req)
		if err != nil || resp.StatusCode != http.StatusTooManyRequests || i >= max {
			return resp, err
		}
		if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
			return resp, nil // a streamed upload: the caller sends it again
		}
		wait := retryAfter(resp.Header)
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if err := d.c.sleep(req.Context(), wait); err != nil {
			return nil, err
		}
		if req.GetBody != nil {
			if req.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
	}
}

// sleep waits out a rate limit (at least one second).
func (c *Client) sleep(ctx context.Context, wait time.Duration) error {
	wait = max(wait, time.Second)
	if c.OnRateLimit != nil {
		c.OnRateLimit(wait)
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// readAll reads an error body, at most 1 MB.
func readAll(r io.Reader) []byte {
	b, _ := io.ReadAll(io.LimitReader(r, 1<<20))
	return b
}

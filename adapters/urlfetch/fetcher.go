// Package urlfetch downloads documents from user-given URLs without letting
// those URLs reach inside the service's network (SSRF). Every connection's
// resolved IP is checked when the socket connects, so DNS rebinding and
// redirects cannot get around the check; only HTTPS is fetched, bodies are
// capped while streaming, and every phase has a timeout.
package urlfetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Errors, for the API to map (all are 400 for POST /translate-url).
var (
	ErrInvalidURL       = errors.New("invalid URL")
	ErrForbiddenAddress = errors.New("URL points to a forbidden address")
	ErrTooLarge         = errors.New("document is too large")
	ErrUpstream         = errors.New("document could not be fetched")
)

// Config sets up a Fetcher; zero durations take the defaults.
type Config struct {
	// AllowPrivate lets loopback/private targets and plain http:// through
	// (--allow-private-urls): for tests and local development only.
	AllowPrivate bool
	// RootCAs replaces the system roots, e.g. with a test server's CA.
	RootCAs *x509.CertPool

	ConnectTimeout time.Duration // default 10 s
	TLSTimeout     time.Duration // default 10 s
	HeaderTimeout  time.Duration // response headers after the request; default 15 s
	Timeout        time.Duration // the whole fetch, body included; default 2 min
	MaxRedirects   int           // default 5
	UserAgent      string        // default "Dragoman/1 document fetcher"
}

// Fetcher implements ports.URLFetcher.
type Fetcher struct {
	cfg    Config
	client *http.Client
	// exempt lets tests reach chosen loopback servers while everything
	// else goes through the real address check.
	exempt func(netip.AddrPort) bool
}

var _ ports.URLFetcher = (*Fetcher)(nil)

// New builds a Fetcher.
func New(cfg Config) *Fetcher {
	cfg.ConnectTimeout = orDefault(cfg.ConnectTimeout, 10*time.Second)
	cfg.TLSTimeout = orDefault(cfg.TLSTimeout, 10*time.Second)
	cfg.HeaderTimeout = orDefault(cfg.HeaderTimeout, 15*time.Second)
	cfg.Timeout = orDefault(cfg.Timeout, 2*time.Minute)
	if cfg.MaxRedirects == 0 {
		cfg.MaxRedirects = 5
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = "Dragoman/1 document fetcher"
	}
	f := &Fetcher{cfg: cfg}
	dialer := &net.Dialer{Timeout: cfg.ConnectTimeout, KeepAlive: 30 * time.Second, Control: f.control}
	transport := &http.Transport{
		Proxy:                  nil, // a proxy would connect for us, past the address check
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSClientConfig:        &tls.Config{RootCAs: cfg.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:    cfg.TLSTimeout,
		ResponseHeaderTimeout:  cfg.HeaderTimeout,
		MaxResponseHeaderBytes: 64 << 10,
		IdleConnTimeout:        30 * time.Second,
		MaxIdleConns:           16,
	}
	f.client = &http.Client{Transport: transport, CheckRedirect: f.checkRedirect}
	return f
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// control runs for every connection attempt, after DNS resolution and
// before connect: the one place where the real target IP is known.
func (f *Fetcher) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot parse the address", ErrForbiddenAddress)
	}
	return f.checkAddr(ap)
}

func (f *Fetcher) checkAddr(ap netip.AddrPort) error {
	if f.cfg.AllowPrivate || (f.exempt != nil && f.exempt(ap)) {
		return nil
	}
	if why := forbidden(ap.Addr()); why != "" {
		return refusedClass(why)
	}
	return nil
}

func (f *Fetcher) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > f.cfg.MaxRedirects {
		return fmt.Errorf("%w: more than %d redirects", ErrUpstream, f.cfg.MaxRedirects)
	}
	return f.checkURL(req.URL)
}

// checkURL refuses what must not be fetched before any connection.
func (f *Fetcher) checkURL(u *url.URL) error {
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && f.cfg.AllowPrivate:
	default:
		return fmt.Errorf("%w: only https:// URLs are fetched, not %q", ErrInvalidURL, u.Scheme+"://")
	}
	if u.Hostname() == "" {
		return fmt.Errorf("%w: no host", ErrInvalidURL)
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%w: bad port %q", ErrInvalidURL, p)
		}
	}
	if u.User != nil {
		return fmt.Errorf("%w: credentials in URLs are not accepted", ErrInvalidURL)
	}
	// An IP literal is refused now for a clearer error; names are checked
	// at connect time, whatever they resolve to.
	if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
		port := u.Port()
		if port == "" {
			port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
		}
		n, _ := strconv.Atoi(port)
		return f.checkAddr(netip.AddrPortFrom(ip, uint16(n)))
	}
	return nil
}

// Fetch writes at most max bytes of the document at rawURL to dst and
// returns its file name from Content-Disposition or the final URL's path.
func (f *Fetcher) Fetch(ctx context.Context, rawURL string, dst io.Writer, max int64) (string, error) {
	if len(rawURL) > 4096 {
		return "", fmt.Errorf("%w: longer than 4096 characters", ErrInvalidURL)
	}
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidURL, errors.Unwrap(err))
	}
	if err := f.checkURL(u); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(ctx, f.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidURL, err)
	}
	req.Header.Set("User-Agent", f.cfg.UserAgent)
	resp, err := f.client.Do(req)
	if err != nil {
		return "", classify(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return "", fmt.Errorf("%w: the server answered %s", ErrUpstream, resp.Status)
	}
	if resp.ContentLength > max {
		return "", fmt.Errorf("%w: %d bytes, the limit is %d", ErrTooLarge, resp.ContentLength, max)
	}
	w := &errWriter{w: dst}
	if _, err := io.Copy(w, io.LimitReader(resp.Body, max)); err != nil {
		if w.err != nil {
			return "", fmt.Errorf("storing fetched document: %w", w.err)
		}
		return "", classify(err)
	}
	// One byte more than max means the document does not fit.
	if n, _ := io.CopyN(io.Discard, resp.Body, 1); n > 0 {
		return "", fmt.Errorf("%w: more than %d bytes", ErrTooLarge, max)
	}
	// A server that ends its body when we give up looks complete; a body
	// that ended as the deadline passed is not trusted.
	if err := ctx.Err(); err != nil {
		return "", classify(err)
	}
	return fileName(resp), nil
}

// classify keeps our own typed errors and turns the rest (DNS, TLS,
// timeouts, resets) into ErrUpstream.
func classify(err error) error {
	for _, own := range []error{ErrInvalidURL, ErrForbiddenAddress, ErrTooLarge, ErrUpstream} {
		if errors.Is(err, own) {
			// Unwrap url.Error and net.OpError ("dial tcp 10.0.0.5:443:
			// …"): they would quote the resolved address.
			var oe *net.OpError
			if errors.As(err, &oe) && errors.Is(oe.Err, own) {
				return oe.Err
			}
			var ue *url.Error
			if errors.As(err, &ue) {
				return ue.Err
			}
			return err
		}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.Canceled) {
		return err // the caller gave up; not the document's fault
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("%w: timed out", ErrUpstream)
	}
	return fmt.Errorf("%w: %s", ErrUpstream, describe(err))
}

// refusedClass says which class of address was refused, never which
// address: the user learns nothing about the internal network.
func refusedClass(why string) error {
	return fmt.Errorf("%w: the host resolves to a %s address", ErrForbiddenAddress, why)
}

// describe names what went wrong with a connection without quoting the
// underlying error, which carries resolved addresses ("dial tcp
// 10.0.0.5:443") and the resolver's ("lookup x on 10.0.0.2:53").
func describe(err error) string {
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return "the host name does not exist"
		}
		return "the host name could not be resolved"
	case errors.As(err, &certErr):
		return "the server's TLS certificate could not be verified"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "the connection was refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "the connection was reset"
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "the host is unreachable"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the server closed the connection"
	}
	var opErr *net.OpError
	if errors.As(err, &opErr) {
		return "the connection failed"
	}
	return "the request failed"
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// errWriter remembers a failure of the destination, which is ours, not the
// remote server's.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}

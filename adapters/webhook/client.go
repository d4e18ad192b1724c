package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/urlfetch"
	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// Headers of a delivery besides the signature.
const (
	HeaderEvent   = "X-Webhook-Event"
	HeaderID      = "X-Webhook-Id"      // the payload's event id
	HeaderAttempt = "X-Webhook-Attempt" // 1, 2, 3
)

// sender POSTs one attempt through an SSRF-guarded client.
type sender struct {
	client       *http.Client
	timeout      time.Duration
	allowPrivate bool
	userAgent    string
}

func newSender(cfg Config) *sender {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second, Control: urlfetch.DialControl(cfg.AllowPrivate)}
	tlsCfg := cfg.TLS
	if tlsCfg == nil {
		tlsCfg = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	transport := &http.Transport{
		Proxy:                  nil, // a proxy would connect for us, past the address check
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSClientConfig:        tlsCfg,
		TLSHandshakeTimeout:    10 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
		IdleConnTimeout:        30 * time.Second,
		MaxIdleConnsPerHost:    4,
	}
	return &sender{
		client: &http.Client{Transport: transport,
			// A redirect is the receiver's answer, not a new address to post to.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		timeout: cfg.Timeout, allowPrivate: cfg.AllowPrivate, userAgent: cfg.UserAgent,
	}
}

// send makes one attempt; the result never contains the secret or body.
func (s *sender) send(ctx context.Context, c *corewebhook.Claim) corewebhook.AttemptResult {
	start := time.Now()
	res := s.post(ctx, c)
	res.Latency = time.Since(start)
	return res
}

func (s *sender) post(ctx context.Context, c *corewebhook.Claim) corewebhook.AttemptResult {
	u, err := url.Parse(c.URL)
	if err != nil || u.Host == "" {
		return corewebhook.AttemptResult{Error: "not sent: the webhook URL is invalid"}
	}
	if u.Scheme != "https" && !(u.Scheme == "http" && s.allowPrivate) {
		return corewebhook.AttemptResult{Error: "not sent: webhooks are delivered over https only"}
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(c.Delivery.Payload))
	if err != nil {
		return corewebhook.AttemptResult{Error: "not sent: the webhook URL is invalid"}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", s.userAgent)
	req.Header.Set(HeaderEvent, c.Delivery.Event)
	req.Header.Set(HeaderID, c.Delivery.EventID)
	req.Header.Set(HeaderAttempt, strconv.Itoa(c.Attempt))
	req.Header.Set(signature.Header, signature.Sign(c.Secret, c.Delivery.Payload))
	resp, err := s.client.Do(req)
	if err != nil {
		return corewebhook.AttemptResult{Error: describe(err, ctx, s.timeout)}
	}
	// Drain a little so the connection can be reused; the body is not kept.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	r := corewebhook.AttemptResult{StatusCode: resp.StatusCode, OK: resp.StatusCode >= 200 && resp.StatusCode <= 299}
	if !r.OK {
		r.Error = "the receiver answered " + resp.Status
	}
	return r
}

// describe says why no response came, without the URL (which may carry
// a token in its query).
func describe(err error, ctx context.Context, timeout time.Duration) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch {
	case errors.Is(err, urlfetch.ErrForbiddenAddress):
		var oe *net.OpError
		if errors.As(err, &oe) && oe.Err != nil {
			return "refused: " + oe.Err.Error()
		}
		return "refused: " + err.Error()
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return fmt.Sprintf("timed out after %s", timeout)
	case errors.Is(err, context.Canceled):
		return "cancelled: the server was shutting down"
	}
	return "no response: " + err.Error()
}

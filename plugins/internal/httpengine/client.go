package httpengine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Client sends requests to one vendor.
type Client struct {
	Engine        string
	HTTP          *http.Client // default: http.DefaultClient with Timeout
	MaxRetries    int
	Backoff       time.Duration
	Timeout       time.Duration
	MaxRetryAfter time.Duration
}

// Error is a vendor failure the plugin gave up on. Its message names the
// engine, so the job's error does too.
type Error struct {
	Engine   string
	Status   int // 0 for network errors and timeouts
	Msg      string
	Attempts int
}

func (e *Error) Error() string {
	s := e.Engine + ": "
	if e.Status != 0 {
		s += fmt.Sprintf("HTTP %d: ", e.Status)
	}
	s += e.Msg
	if e.Attempts > 1 {
		s += fmt.Sprintf(" (gave up after %d attempts)", e.Attempts)
	}
	return s
}

// Final marks a response no retry can fix (bad key, quota exhausted, a
// request the vendor refuses). Decode functions may return it too.
type Final struct{ Msg string }

func (f *Final) Error() string { return f.Msg }

// Response is one answer of the vendor.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Do sends the request newReq builds (once per attempt) and hands a 2xx
// response to decode. It retries 429 (after Retry-After when given), 5xx,
// network errors, timeouts and decode errors; other 4xx are final.
// classify, consulted first for every non-2xx answer, may make any of them
// final by returning a message (a quota that will not come back, a bad
// key); "" leaves the default.
func (c *Client) Do(ctx context.Context, newReq func(ctx context.Context) (*http.Request, error), classify func(Response) (final string), decode func(Response) error) error {
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	wait := c.Backoff
	var last *Error
	for attempt := 1; ; attempt++ {
		resp, err := c.once(ctx, hc, newReq)
		var retryAfter time.Duration
		switch {
		case err != nil && ctx.Err() != nil:
			return &Error{Engine: c.Engine, Msg: "cancelled: " + ctx.Err().Error(), Attempts: attempt}
		case err != nil:
			last = &Error{Engine: c.Engine, Msg: describeNetErr(err)}
		case resp.Status >= 200 && resp.Status < 300:
			derr := decode(resp)
			if derr == nil {
				return nil
			}
			var f *Final
			if errors.As(derr, &f) {
				return &Error{Engine: c.Engine, Msg: f.Msg, Attempts: attempt}
			}
			last = &Error{Engine: c.Engine, Msg: "malformed response: " + derr.Error()}
		default:
			if classify != nil {
				if msg := classify(resp); msg != "" {
					return &Error{Engine: c.Engine, Status: resp.Status, Msg: msg, Attempts: attempt}
				}
			}
			retryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
			switch {
			case resp.Status == http.StatusTooManyRequests:
				last = &Error{Engine: c.Engine, Status: resp.Status, Msg: "rate limited" + detail(resp)}
				if retryAfter > c.MaxRetryAfter {
					last.Msg += fmt.Sprintf("; the vendor asks to wait %s, longer than %s", retryAfter, c.MaxRetryAfter)
					last.Attempts = attempt
					return last
				}
			case resp.Status >= 500:
				last = &Error{Engine: c.Engine, Status: resp.Status, Msg: "server error" + detail(resp)}
			default:
				return &Error{Engine: c.Engine, Status: resp.Status, Msg: "request refused" + detail(resp), Attempts: attempt}
			}
		}
		if attempt > c.MaxRetries {
			last.Attempts = attempt
			return last
		}
		delay := wait
		if retryAfter > 0 {
			delay = retryAfter
		}
		wait *= 2
		select {
		case <-ctx.Done():
			last.Msg += "; cancelled while waiting to retry"
			last.Attempts = attempt
			return last
		case <-time.After(delay):
		}
	}
}

func (c *Client) once(ctx context.Context, hc *http.Client, newReq func(context.Context) (*http.Request, error)) (Response, error) {
	if c.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.Timeout)
		defer cancel()
	}
	req, err := newReq(ctx)
	if err != nil {
		return Response{}, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return Response{}, err
	}
	return Response{Status: resp.StatusCode, Header: resp.Header, Body: body}, nil
}

func describeNetErr(err error) string {
	if errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout") {
		return "timed out: " + err.Error()
	}
	return "request failed: " + err.Error()
}

// detail is a short excerpt of an error body for the message.
func detail(r Response) string {
	s := strings.TrimSpace(string(r.Body))
	if s == "" {
		return ""
	}
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return ": " + s
}

// parseRetryAfter reads delay-seconds or an HTTP date; 0 if absent.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Sentinel errors for the contract's error statuses; match them with
// errors.Is. The error itself is an *APIError with the server's message.
var (
	ErrUnauthenticated = errors.New("401 unauthenticated: missing or invalid API key")
	ErrQuotaExhausted  = errors.New("402 monthly word quota exhausted")
	ErrForbidden       = errors.New("403 forbidden: revoked key or suspended account")
	ErrNotFound        = errors.New("404 not found")
	ErrGone            = errors.New("410 gone: the translated file expired")
	ErrTooLarge        = errors.New("413 document too large")
	ErrUnprocessable   = errors.New("422 unprocessable request")
	ErrRateLimited     = errors.New("429 rate limited")
)

var statusErrors = map[int]error{
	401: ErrUnauthenticated, 402: ErrQuotaExhausted, 403: ErrForbidden, 404: ErrNotFound,
	410: ErrGone, 413: ErrTooLarge, 422: ErrUnprocessable, 429: ErrRateLimited,
}

// APIError is an error answer of the API (its Problem body).
type APIError struct {
	Status     int
	Code       string // stable machine-readable code, e.g. "quota_exhausted"
	Message    string
	RetryAfter time.Duration // for 429
}

func (e *APIError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("dragoman: HTTP %d", e.Status)
	}
	return fmt.Sprintf("dragoman: %s (HTTP %d)", e.Message, e.Status)
}

// Is matches the sentinel of e's status.
func (e *APIError) Is(target error) bool {
	s, ok := statusErrors[e.Status]
	return ok && s == target
}

// apiError reads an error answer; nil for 2xx.
func apiError(status int, h http.Header, body []byte) error {
	if status >= 200 && status < 300 {
		return nil
	}
	e := &APIError{Status: status}
	var p struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &p) == nil {
		e.Code, e.Message = p.Code, p.Message
	}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	e.RetryAfter = retryAfter(h)
	return e
}

func retryAfter(h http.Header) time.Duration {
	if h == nil {
		return 0
	}
	if n, err := strconv.Atoi(h.Get("Retry-After")); err == nil && n >= 0 {
		return time.Duration(n) * time.Second
	}
	return 0
}

// JobFailedError is a job that ended failed (cancelled ones included).
type JobFailedError struct {
	JobID   string
	Message string
}

func (e *JobFailedError) Error() string { return "job " + e.JobID + " failed: " + e.Message }

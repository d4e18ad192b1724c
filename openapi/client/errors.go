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

// APIError is an error answer of the API: its RFC 9457 problem body.
type APIError struct {
	Status     int
	Type       string // problem type, e.g. "/v1/problems/quota_exhausted"
	Title      string // the type's summary, e.g. "Monthly word quota exhausted"
	Code       string // stable machine-readable code, e.g. "quota_exhausted"
	Message    string // this occurrence's detail
	Instance   string // the request path it answered
	Fields     []FieldError
	RetryAfter time.Duration // for 429
}

// FieldError locates one invalid input of a 422.
type FieldError struct {
	Location string `json:"location"`
	Message  string `json:"message"`
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
		Type     string       `json:"type"`
		Title    string       `json:"title"`
		Detail   string       `json:"detail"`
		Instance string       `json:"instance"`
		Code     string       `json:"code"`
		Message  string       `json:"message"`
		Errors   []FieldError `json:"errors"`
	}
	if json.Unmarshal(body, &p) == nil {
		e.Type, e.Title, e.Code, e.Instance, e.Fields = p.Type, p.Title, p.Code, p.Instance, p.Errors
		e.Message = p.Detail
		if e.Message == "" { // a body from before RFC 9457
			e.Message = p.Message
		}
	}
	if e.Message == "" {
		e.Message = e.Title
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

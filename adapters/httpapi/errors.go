package httpapi

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Problem is the one error body of the API, for every status.
type Problem struct {
	Status  int            `json:"status" doc:"HTTP status code" example:"422"`
	Code    string         `json:"code" doc:"Stable machine-readable error code" example:"unprocessable"`
	Message string         `json:"message" doc:"Human-readable explanation" example:"target_lang: unknown language \"Klingon\""`
	Errors  []ProblemField `json:"errors,omitempty" doc:"Field-level details of a validation error"`

	headers http.Header
}

// ProblemField locates one invalid input. Values are never echoed.
type ProblemField struct {
	Location string `json:"location,omitempty" example:"body.target_lang"`
	Message  string `json:"message"`
}

func (p *Problem) Error() string             { return p.Message }
func (p *Problem) GetStatus() int            { return p.Status }
func (p *Problem) GetHeaders() http.Header   { return p.headers }
func (p *Problem) ContentType(string) string { return "application/problem+json" }

var codes = map[int]string{
	400: "bad_request", 401: "unauthenticated", 402: "quota_exhausted", 403: "forbidden",
	404: "not_found", 405: "method_not_allowed", 408: "request_timeout", 410: "gone", 413: "too_large",
	415: "unsupported_media_type", 422: "unprocessable", 429: "rate_limited", 500: "internal",
	502: "provider_error", 503: "unavailable",
}

func newProblem(status int, msg string, errs ...error) *Problem {
	p := &Problem{Status: status, Code: codes[status], Message: msg}
	if p.Code == "" {
		p.Code = "error"
	}
	for _, e := range errs {
		if e == nil {
			continue
		}
		var d *huma.ErrorDetail
		if errors.As(e, &d) {
			// d.Value may hold a whole request body: never echo it.
			p.Errors = append(p.Errors, ProblemField{Location: d.Location, Message: d.Message})
			continue
		}
		p.Errors = append(p.Errors, ProblemField{Message: e.Error()})
	}
	return p
}

func init() {
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		return newProblem(status, msg, errs...)
	}
}

var kindStatus = map[service.Kind]int{
	service.KindUnauthenticated: 401, service.KindForbidden: 403, service.KindNotFound: 404,
	service.KindGone: 410, service.KindTooLarge: 413, service.KindUnprocessable: 422,
	service.KindBadURL: 400, service.KindQuota: 402, service.KindRateLimited: 429,
	service.KindUnavailable: 503,
}

// problemOf maps a core error to its HTTP problem; internal errors are
// logged by the caller and shown without detail. A dependency that is
// down, full or locked (ports.Unavailable) is a 503 naming it, with
// Retry-After, never a 500.
func problemOf(err error) *Problem {
	var se *service.Error
	var down *ports.Unavailable
	switch {
	case errors.As(err, &se):
		p := newProblem(kindStatus[se.Kind], se.Message)
		switch {
		case se.Kind == service.KindRateLimited:
			p.setRetryAfter(se.RetryAfter)
		case se.Kind == service.KindUnavailable && errors.As(se.Err, &down):
			p.setRetryAfter(down.RetryAfter)
		case se.Kind == service.KindUnavailable && se.Err != nil: // a passing failure, not a missing feature
			p.setRetryAfter(10 * time.Second)
		}
		return p
	case errors.As(err, &down):
		wait := max(down.RetryAfter, time.Second)
		p := newProblem(http.StatusServiceUnavailable, fmt.Sprintf("%s; try again in %d s", down.Message(), retrySeconds(wait)))
		p.setRetryAfter(wait)
		return p
	}
	return newProblem(500, "internal error")
}

// setRetryAfter sets the Retry-After header in whole seconds, at least 1.
func (p *Problem) setRetryAfter(d time.Duration) {
	p.headers = http.Header{"Retry-After": {strconv.Itoa(retrySeconds(d))}}
}

func retrySeconds(d time.Duration) int { return max(int(math.Ceil(d.Seconds())), 1) }

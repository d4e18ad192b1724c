package httpapi

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/danielgtaylor/huma/v2"

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
// logged by the caller and shown without detail.
func problemOf(err error) *Problem {
	var se *service.Error
	if !errors.As(err, &se) {
		return newProblem(500, "internal error")
	}
	p := newProblem(kindStatus[se.Kind], se.Message)
	if se.Kind == service.KindRateLimited {
		p.headers = http.Header{"Retry-After": {strconv.Itoa(int(se.RetryAfter.Seconds()))}}
	}
	return p
}

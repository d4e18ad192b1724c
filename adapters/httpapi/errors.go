package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Problem is the one error body of the API, for every status: RFC 9457
// problem details (package problem), shown in the contract as Problem.
type Problem = problem.Problem

// ProblemField locates one invalid input.
type ProblemField = problem.ProblemField

// newProblem is the problem of status with msg as its detail; errs are
// huma's validation details (or other errors) listed in errors[]. Every
// error of the API is made here (huma's own too: see init).
func newProblem(status int, msg string, errs ...error) *Problem {
	p := problem.New(status, msg)
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

// withInstance is the huma transformer that gives every problem the path
// of the request it answers.
func withInstance(ctx huma.Context, _ string, v any) (any, error) {
	if p, ok := v.(*Problem); ok && p.Instance == "" {
		p.Instance = ctx.URL().Path
	}
	return v, nil
}

var kindStatus = map[service.Kind]int{
	service.KindUnauthenticated: 401, service.KindForbidden: 403, service.KindNotFound: 404,
	service.KindGone: 410, service.KindTooLarge: 413, service.KindUnprocessable: 422,
	service.KindBadURL: 400, service.KindQuota: 402, service.KindRateLimited: 429,
	service.KindUnavailable: 503, service.KindStale: 412, service.KindConflict: 409,
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
		st := kindStatus[se.Kind]
		if st == 0 {
			return newProblem(500, "internal error")
		}
		p := newProblem(st, se.Message)
		switch {
		case se.Kind == service.KindRateLimited:
			p.WithRetryAfter(se.RetryAfter)
		case se.Kind == service.KindUnavailable && errors.As(se.Err, &down):
			p.WithRetryAfter(down.RetryAfter)
		case se.Kind == service.KindUnavailable && se.Err != nil: // a passing failure, not a missing feature
			p.WithRetryAfter(10 * time.Second)
		}
		return p
	case errors.As(err, &down):
		wait := max(down.RetryAfter, time.Second)
		secs := int((wait + time.Second - 1) / time.Second)
		return newProblem(http.StatusServiceUnavailable, fmt.Sprintf("%s; try again in %d s", down.Message(), secs)).WithRetryAfter(wait)
	}
	return newProblem(500, "internal error")
}

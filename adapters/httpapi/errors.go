package httpapi

import (
	"errors"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/adapters/problem"
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

// problemOf maps a core error to its HTTP problem (problem.Of, which the
// dashboard uses too); internal errors are logged by the caller and shown
// without detail.
func problemOf(err error) *Problem { return problem.Of(err) }

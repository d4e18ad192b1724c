package httpapi

import (
	"context"
	"net/http"
	"sort"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/adapters/problem"
)

// noSecurity marks an operation that needs no key. It is an empty list, not
// nil, so the contract says `security: []` (linters flag an operation that
// says nothing while the API declares a scheme).
var noSecurity = []map[string][]string{}

type problemTypeInput struct {
	Code string `path:"code" maxLength:"64" doc:"The problem's code: the last segment of its type" example:"quota_exhausted"`
}

type problemTypeOutput struct{ Body problem.Type }

// registerProblemTypes serves the description of each problem type at the
// path its type URI names.
func (a *API) registerProblemTypes() {
	var codes []string
	for _, t := range problem.Types {
		codes = append(codes, "`"+t.Code+"` ("+strconv.Itoa(t.Status)+")")
	}
	sort.Strings(codes)
	huma.Register(a.api, huma.Operation{
		OperationID: "problemType", Method: http.MethodGet, Path: "/problems/{code}", Tags: []string{"Service"},
		Summary: "Describe a problem type",
		Description: "Every error body is an RFC 9457 problem whose `type` is `/v1/problems/{code}` (a reference relative to the server's address); " +
			"this answers what that type means. No authentication. Codes: " + strings.Join(codes, ", ") + ".",
		Security: noSecurity, Errors: []int{404},
	}, func(_ context.Context, in *problemTypeInput) (*problemTypeOutput, error) {
		for _, t := range problem.Types {
			if t.Code == in.Code {
				return &problemTypeOutput{Body: t}, nil
			}
		}
		return nil, newProblem(http.StatusNotFound, "no problem type "+in.Code)
	})
}

// methods are those a path may be served with, for 405's Allow.
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// unrouted answers what no route took: 405 with Allow when the path is
// served with other methods, 404 otherwise; both as problems.
func (a *API) unrouted(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range methods {
		probe := &http.Request{Method: m, URL: r.URL, Host: r.Host, Header: http.Header{}}
		if _, pattern := a.mux.Handler(probe); pattern != "" && pattern != "/" {
			allow = append(allow, m)
		}
	}
	if len(allow) > 0 {
		p := newProblem(http.StatusMethodNotAllowed, r.Method+" is not served at "+r.URL.Path+"; it takes "+strings.Join(allow, ", "))
		p.SetHeader("Allow", strings.Join(allow, ", "))
		problem.Write(w, r, p)
		return
	}
	problem.Write(w, r, newProblem(http.StatusNotFound, "no such endpoint: see "+Prefix+"/openapi.json"))
}

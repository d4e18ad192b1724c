package httpapi

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// ReadinessCheck is one dependency the service needs to take work: the
// database, the event bus, the blob store, the plugins.
type ReadinessCheck struct {
	Name  string
	Check func(ctx context.Context) error
	// Advisory checks are reported but leave the process ready: what they
	// check is not needed for this process's work (an api process stores
	// the jobs it accepts while the event bus is down, and they are
	// published once it is back).
	Advisory bool
}

// SetReadiness sets what GET /v1/ready checks; without checks it only
// says the process is up, like /v1/health.
func (a *API) SetReadiness(checks ...ReadinessCheck) {
	a.readyMu.Lock()
	defer a.readyMu.Unlock()
	a.ready = checks
}

// ReadyOutput is the readiness report.
type ReadyOutput struct {
	Status int `json:"-"`
	Body   struct {
		Ready  bool              `json:"ready" doc:"true when every dependency this process needs answered"`
		Checks map[string]string `json:"checks" doc:"Each dependency (database, bus, blobs, plugins) and \"ok\" or why it failed; a dependency an api process can do without (bus) is reported without making it unready"`
	}
}

// readyTimeout bounds every check, so a hung dependency fails the probe
// instead of hanging it.
const readyTimeout = 5 * time.Second

func (a *API) registerReady() {
	op := huma.Operation{
		OperationID: "ready", Method: http.MethodGet, Path: "/ready", Tags: []string{"Service"},
		Summary: "Readiness check",
		Description: "No authentication. 200 when this process can take its work: the database (for SQLite also: its " +
			"disk has room and no other program holds its lock), the document store (its disk has room), the plugins " +
			"and, for processes that run the pipeline, the event bus all answered; 503, with the same body naming " +
			"what failed, when any did not. An api process (role api) stays ready while the event bus is down: it " +
			"stores the jobs it accepts and they are published once the bus is back (the bus line says so). " +
			"`GET /health` stays the liveness check (the process is up); use this one to route traffic.",
		Responses: map[string]*huma.Response{}, Security: noSecurity,
	}
	huma.Register(a.api, op, func(ctx context.Context, _ *struct{}) (*ReadyOutput, error) {
		return a.readiness(ctx), nil
	})
	// The 503 answer has the 200 body.
	o := a.api.OpenAPI().Paths[Prefix+"/ready"]
	if o == nil {
		o = a.api.OpenAPI().Paths["/ready"]
	}
	if o != nil && o.Get != nil {
		if ok := o.Get.Responses["200"]; ok != nil {
			o.Get.Responses["503"] = &huma.Response{Description: "A dependency is down", Content: ok.Content}
		}
	}
}

// checkResult is a check's line in the report: "ok", or why it failed in
// the words of ports.Unavailable where the adapter gave them (the probe
// answers without authentication: no addresses).
func checkResult(err error, advisory bool) string {
	if err == nil {
		return "ok"
	}
	msg := err.Error()
	var u *ports.Unavailable
	if errors.As(err, &u) {
		msg = u.Message()
	}
	if advisory {
		msg += " (not needed by this process: jobs it accepts are published once it is back)"
	}
	return msg
}

func (a *API) readiness(ctx context.Context) *ReadyOutput {
	a.readyMu.Lock()
	checks := a.ready
	a.readyMu.Unlock()
	out := &ReadyOutput{Status: http.StatusOK}
	out.Body.Ready = true
	out.Body.Checks = map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, c := range checks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, readyTimeout)
			defer cancel()
			err := c.Check(cctx)
			mu.Lock()
			defer mu.Unlock()
			out.Body.Checks[c.Name] = checkResult(err, c.Advisory)
			if err != nil && !c.Advisory {
				out.Body.Ready = false
				out.Status = http.StatusServiceUnavailable
			}
		}()
	}
	wg.Wait()
	return out
}

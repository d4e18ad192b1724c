package httpapi

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/danielgtaylor/huma/v2"
)

// ReadinessCheck is one dependency the service needs to take work: the
// database, the event bus, the blob store, the plugins.
type ReadinessCheck struct {
	Name  string
	Check func(ctx context.Context) error
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
		Ready  bool              `json:"ready" doc:"true when every dependency answered"`
		Checks map[string]string `json:"checks" doc:"Each dependency (database, bus, blobs, plugins) and \"ok\" or why it failed"`
	}
}

// readyTimeout bounds every check, so a hung dependency fails the probe
// instead of hanging it.
const readyTimeout = 5 * time.Second

func (a *API) registerReady() {
	op := huma.Operation{
		OperationID: "ready", Method: http.MethodGet, Path: "/ready", Tags: []string{"Service"},
		Summary: "Readiness check",
		Description: "No authentication. 200 when the service can take work: the database, the event bus, the document " +
			"store and the plugins all answered; 503, with the same body naming what failed, when any did not. " +
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
			res := "ok"
			if err := c.Check(cctx); err != nil {
				res = err.Error()
			}
			mu.Lock()
			out.Body.Checks[c.Name] = res
			if res != "ok" {
				out.Body.Ready = false
				out.Status = http.StatusServiceUnavailable
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	return out
}

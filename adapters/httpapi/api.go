// Package httpapi serves the /v1 REST contract with huma: it generates the
// OpenAPI 3.1 document from the operations registered here, serves it at
// /v1/openapi.json and /v1/openapi.yaml, and an offline docs page at /v1/docs.
package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/service"
)

// Version is the contract's version.
const Version = "1.0.0"

// Prefix is the base path of the contract.
const Prefix = "/v1"

// API is the HTTP face of the service.
type API struct {
	svc service.UseCases
	log *slog.Logger
	api huma.API
	mux *http.ServeMux

	readyMu sync.Mutex
	ready   []ReadinessCheck
}

type callerKey struct{}

// caller is the authenticated client of a request.
func caller(ctx context.Context) *service.Caller {
	c, _ := ctx.Value(callerKey{}).(*service.Caller)
	return c
}

var security = []map[string][]string{{"apiKey": {}}}

// New builds the API and its routes.
func New(svc service.UseCases, log *slog.Logger) *API {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	mux := http.NewServeMux()
	cfg := huma.DefaultConfig("Dragoman document translation API", Version)
	cfg.Info.Description = description
	cfg.DocsPath = "" // huma's page loads from a CDN; ours is embedded
	// No "$schema" links in bodies: responses carry exactly the contract's fields.
	cfg.CreateHooks = nil
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"apiKey": {Type: "apiKey", In: "header", Name: "X-API-Key",
			Description: "API key (`dgm_…`) created with `dragoman admin key create`."},
	}
	cfg.Tags = []*huma.Tag{
		{Name: "Jobs", Description: "Submit documents, poll jobs, download translations"},
		{Name: "Service", Description: "Health, languages and usage"},
		{Name: "Webhooks", Description: "Signed notifications when jobs finish"},
		{Name: "Glossaries", Description: "Terminology enforced on jobs, and the do-not-translate list"},
		{Name: "Memory", Description: "The account's own translation memory as TMX"},
		{Name: "Review", Description: "Which sentences of a translation to check and why, and correcting them"},
	}
	cfg.Info.Contact = &huma.Contact{Name: "Dragoman", URL: "https://github.com/dragoman-translate/dragoman"}
	cfg.Info.License = &huma.License{Name: "Apache-2.0", Identifier: "Apache-2.0"}
	cfg.Transformers = append(cfg.Transformers, withInstance)
	cfg.Components.Schemas = huma.NewMapRegistry("#/components/schemas/", huma.DefaultSchemaNamer)
	a := &API{svc: svc, log: log, mux: mux}
	a.api = humago.NewWithPrefix(mux, Prefix, cfg)
	a.api.UseMiddleware(a.authenticate)

	a.registerMeta()
	a.registerReady()
	a.registerJobs()
	a.registerBatches()
	a.registerQuote()
	a.submissionSchemas()
	a.registerWebhooks()
	a.registerJobCatalog()
	a.registerGlossaries()
	a.registerPostEditing()
	a.registerSegments()
	a.registerMemory()
	a.registerProblemTypes()
	a.webhooksUnderPrefix()
	a.describeDeliveries()
	nullableRefs(a.api.OpenAPI(), "rtl_fidelity")
	nullableRefs(a.api.OpenAPI(), "review")
	retryAfterHeaders(a.api.OpenAPI())
	bodyTimeoutResponses(a.api.OpenAPI())

	serveDocs(mux)
	// Everything else gets the same problem body as the contract's errors.
	mux.HandleFunc("/", a.unrouted)
	return a
}

// Handler serves the API. No answer of it is a page to sniff or frame.
func (a *API) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		a.mux.ServeHTTP(w, r)
	})
}

// OpenAPI is the generated contract.
func (a *API) OpenAPI() *huma.OpenAPI { return a.api.OpenAPI() }

// authenticate runs before every operation that declares security: it
// resolves the key and applies the per-minute limit before the body is read.
func (a *API) authenticate(ctx huma.Context, next func(huma.Context)) {
	if len(ctx.Operation().Security) == 0 {
		next(ctx)
		return
	}
	c, err := a.svc.Accounts.Authenticate(ctx.Context(), ctx.Header("X-API-Key"))
	if err != nil {
		a.writeErr(ctx, err)
		return
	}
	NoteAccount(ctx.Context(), c.Account.ID)
	next(huma.WithValue(ctx, callerKey{}, c))
}

func (a *API) writeErr(ctx huma.Context, err error) {
	r, w := humago.Unwrap(ctx)
	problem.Write(w, r, a.problem(err))
}

// problem maps err and logs what the client does not see.
func (a *API) problem(err error) *Problem {
	p := problemOf(err)
	switch p.Status {
	case http.StatusInternalServerError:
		a.log.Error("request failed", "err", failure.Raw(err))
	case http.StatusServiceUnavailable:
		a.log.Warn("request refused: a dependency is unavailable", "err", failure.Raw(err))
	default:
		if raw := failure.Raw(err); p.Detail != raw { // the client reads it in other words (package failure)
			a.log.Info("request refused", "status", p.Status, "err", raw)
		}
	}
	return p
}

// fail turns a core error into the error huma writes.
func (a *API) fail(err error) error { return a.problem(err) }

// nullableRefs marks object properties that may be null. huma cannot tag a
// struct-typed field nullable, so the schema says it after registration:
// OpenAPI 3.1 writes it as anyOf [the object, null].
func nullableRefs(o *huma.OpenAPI, prop string) {
	for _, s := range o.Components.Schemas.Map() {
		p, ok := s.Properties[prop]
		if !ok || p.Ref == "" {
			continue
		}
		s.Properties[prop] = &huma.Schema{
			Description: p.Description,
			AnyOf:       []*huma.Schema{{Ref: p.Ref}, {Type: "null"}},
		}
		p.Description = ""
	}
}

// retryAfterHeaders declares the Retry-After header of every 429 and 503
// (huma has no tag for headers of error responses), and a 503 on every
// operation that needs a key: authentication reads the database, so any of
// them is refused with 503 while the database is down, full or locked.
func retryAfterHeaders(o *huma.OpenAPI) {
	for _, item := range o.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Post, item.Put, item.Patch, item.Delete} {
			if op == nil || op.Responses["429"] == nil {
				continue
			}
			if len(op.Security) > 0 && op.Responses["503"] == nil {
				unavailable := *op.Responses["429"]
				unavailable.Headers = nil
				unavailable.Description = "Service Unavailable"
				op.Responses["503"] = &unavailable
			}
			for code, what := range map[string]string{
				"429": "Whole seconds until a request would pass",
				"503": "Whole seconds after which the service may be back (a dependency was down, full or locked)",
			} {
				r := op.Responses[code]
				if r == nil {
					continue
				}
				if r.Headers == nil {
					r.Headers = map[string]*huma.Param{}
				}
				r.Headers["Retry-After"] = &huma.Param{Description: what, Schema: &huma.Schema{Type: "integer", Minimum: ptr(1.0)}}
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
)

// WebhookRegistration answers a registration; the secret is shown only here.
type WebhookRegistration struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	Secret    string    `json:"secret" pattern:"^[0-9a-f]{64}$" doc:"64 hexadecimal characters; returned only once, at registration; the HMAC-SHA256 key of X-Webhook-Signature"`
	IsActive  bool      `json:"is_active"`
	CreatedAt time.Time `json:"created_at"`
}

type webhookInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	Body   struct {
		URL    string   `json:"url" format:"uri" maxLength:"2048" doc:"HTTPS address that receives deliveries"`
		Events []string `json:"events" minItems:"1" uniqueItems:"true" doc:"Event kinds: job.completed, job.failed" enum:"job.completed,job.failed"`
	}
}

type webhookOutput struct {
	Location string `header:"Location"`
	Body     WebhookRegistration
}

// WebhooksPath is the specification's registration path, outside /v1.
const WebhooksPath = "/api/webhooks"

func (a *API) registerWebhooks() {
	op := huma.Operation{
		OperationID: "registerWebhook", Method: http.MethodPost, Path: "/webhooks", Tags: []string{"Webhooks"},
		Summary: "Register a webhook",
		Description: "Registers a receiver for `job.completed` and `job.failed` events of the caller's jobs. " +
			"Also served at `" + WebhooksPath + "` (the specification's path, outside /v1). " +
			"Deliveries are HTTP POSTs signed with `X-Webhook-Signature: sha256=<hex HMAC-SHA256 of the raw body>` using the returned secret.",
		DefaultStatus: http.StatusCreated, Security: security, Errors: []int{401, 403, 422, 429},
	}
	huma.Register(a.api, op, a.registerWebhook)

	// The same operation at the specification's path, on a second huma API
	// without docs of its own; its path is added to the main contract with
	// a server override so that one document describes both.
	cfg := huma.DefaultConfig("Dragoman webhooks", Version)
	cfg.OpenAPIPath, cfg.DocsPath, cfg.SchemasPath, cfg.CreateHooks = "", "", "", nil
	alias := humago.New(a.mux, cfg)
	alias.UseMiddleware(a.authenticate)
	aliasOp := op
	aliasOp.OperationID = "registerWebhookApi"
	aliasOp.Path = WebhooksPath
	aliasOp.Servers = []*huma.Server{{URL: "/", Description: "The specification's webhook path lies outside /v1"}}
	huma.Register(alias, aliasOp, a.registerWebhook)
	item := *alias.OpenAPI().Paths[WebhooksPath]
	a.api.OpenAPI().Paths[WebhooksPath] = &item
}

func (a *API) registerWebhook(ctx context.Context, in *webhookInput) (*webhookOutput, error) {
	w, err := a.svc.RegisterWebhook(ctx, caller(ctx), in.Body.URL, in.Body.Events)
	if err != nil {
		return nil, a.fail(err)
	}
	return &webhookOutput{Location: Prefix + "/webhooks/" + w.ID, Body: WebhookRegistration{
		ID: w.ID, URL: w.URL, Events: w.Events, Secret: w.Secret, IsActive: w.Active, CreatedAt: w.CreatedAt,
	}}, nil
}

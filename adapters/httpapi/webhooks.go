package httpapi

import (
	"context"
	"math"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/core/webhook"
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

// Webhook is a registered receiver as shown after registration: never
// with its secret.
type Webhook struct {
	ID        string    `json:"id"`
	URL       string    `json:"url"`
	Events    []string  `json:"events"`
	IsActive  bool      `json:"is_active"`
	CreatedAt time.Time `json:"created_at"`
}

// WebhookList lists the caller's webhooks.
type WebhookList struct {
	Webhooks []Webhook `json:"webhooks" doc:"Oldest first"`
}

// WebhookRequest registers a webhook.
type WebhookRequest struct {
	URL    string   `json:"url" format:"uri" maxLength:"2048" doc:"HTTPS address that receives deliveries"`
	Events []string `json:"events" minItems:"1" uniqueItems:"true" doc:"Event kinds: job.completed, job.failed" enum:"job.completed,job.failed"`
}

// WebhookChange updates a webhook; absent fields are left as they are.
type WebhookChange struct {
	URL      *string  `json:"url,omitempty" format:"uri" maxLength:"2048" doc:"New HTTPS delivery address"`
	Events   []string `json:"events,omitempty" required:"false" minItems:"1" uniqueItems:"true" enum:"job.completed,job.failed" doc:"New subscribed event kinds"`
	IsActive *bool    `json:"is_active,omitempty" doc:"false stops deliveries; queued ones are cancelled"`
}

// WebhookTest answers a test ping request.
type WebhookTest struct {
	EventID   string `json:"event_id" format:"uuid" doc:"The id of the queued webhook.test event (the payload's id and X-Webhook-Id)"`
	Event     string `json:"event" enum:"webhook.test"`
	WebhookID string `json:"webhook_id"`
}

// WebhookDelivery is one attempt in a webhook's delivery history.
type WebhookDelivery struct {
	DeliveryID     string    `json:"delivery_id" doc:"One delivery is one event sent to this webhook, in up to 3 attempts"`
	EventID        string    `json:"event_id" doc:"The payload's id: the same in every attempt"`
	Event          string    `json:"event" enum:"job.completed,job.failed,webhook.test"`
	Attempt        int       `json:"attempt" minimum:"1" maximum:"3"`
	AttemptedAt    time.Time `json:"attempted_at"`
	State          string    `json:"state" enum:"in_progress,succeeded,failed"`
	ResponseStatus *int      `json:"response_status" nullable:"true" doc:"HTTP status the receiver answered; null when no response came"`
	LatencyMS      float64   `json:"latency_ms" doc:"Time from sending to the receiver's answer (or failure), in milliseconds"`
	Error          *string   `json:"error" nullable:"true" doc:"Why the attempt failed: a non-2xx status, a timeout (15 s), a connection error or a refused address"`
}

// WebhookDeliveries is a webhook's delivery history.
type WebhookDeliveries struct {
	Deliveries []WebhookDelivery `json:"deliveries" doc:"Newest attempt first"`
}

type webhookInput struct {
	APIKey string `header:"X-API-Key" required:"false" doc:"API key"`
	Body   WebhookRequest
}

type webhookOutput struct {
	Location string `header:"Location"`
	Body     WebhookRegistration
}

type webhookIDInput struct {
	APIKey    string `header:"X-API-Key" required:"false" doc:"API key"`
	WebhookID string `path:"webhook_id" maxLength:"64" doc:"Webhook id"`
}

type webhookUpdateInput struct {
	APIKey    string `header:"X-API-Key" required:"false" doc:"API key"`
	WebhookID string `path:"webhook_id" maxLength:"64" doc:"Webhook id"`
	Body      WebhookChange
}

type deliveriesInput struct {
	APIKey    string `header:"X-API-Key" required:"false" doc:"API key"`
	WebhookID string `path:"webhook_id" maxLength:"64" doc:"Webhook id"`
	Limit     int    `query:"limit" minimum:"1" maximum:"500" default:"100" doc:"At most this many attempts"`
}

type webhookGetOutput struct{ Body Webhook }
type webhookListOutput struct{ Body WebhookList }
type webhookTestOutput struct {
	Location string `header:"Location" doc:"The webhook's delivery history"`
	Body     WebhookTest
}
type deliveriesOutput struct{ Body WebhookDeliveries }

// WebhooksPath is the specification's registration path, outside /v1.
const WebhooksPath = "/api/webhooks"

const payloadDoc = "Deliveries are HTTP POSTs with `Content-Type: application/json`, `X-Webhook-Event`, `X-Webhook-Id` (the event id), " +
	"`X-Webhook-Attempt` and `X-Webhook-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body, keyed with the secret>`. " +
	"Body: `{id, event, timestamp, data: {job_id, user_id, status, original_name, docx_url, pdf_url, total_words, target_language, error}}`; " +
	"`id` is stable per event, so de-duplicate by it. Any non-2xx answer or a timeout (15 s) is retried: 3 attempts, 0 s, 2 s and 4 s apart."

// registerWebhooks serves every webhook operation under /v1/webhooks and,
// identically, under /api/webhooks (the specification's path).
func (a *API) registerWebhooks() {
	// The mirror is a second huma API without docs of its own; its paths
	// are added to the main contract with a server override so that one
	// document describes both.
	cfg := huma.DefaultConfig("Dragoman webhooks", Version)
	cfg.OpenAPIPath, cfg.DocsPath, cfg.SchemasPath, cfg.CreateHooks = "", "", "", nil
	cfg.Transformers = append(cfg.Transformers, withInstance) // its problems name their path too
	alias := humago.New(a.mux, cfg)
	alias.UseMiddleware(a.authenticate)
	tags := []string{"Webhooks"}
	mirrored := " Also served at `" + WebhooksPath + "…` (the specification's path, outside /v1) and, for generated clients that ignore that operation's server, at `" + Prefix + WebhooksPath + "…`."

	both(a, alias, huma.Operation{
		OperationID: "registerWebhook", Method: http.MethodPost, Path: "/webhooks", Tags: tags,
		Summary: "Register a webhook",
		Description: "Registers a receiver for `job.completed` and `job.failed` events of the caller's jobs. " +
			"The response carries the signing secret; it is never shown again. " + payloadDoc + mirrored,
		DefaultStatus: http.StatusCreated, Security: security, Errors: []int{401, 403, 422, 429},
	}, a.registerWebhook)
	both(a, alias, huma.Operation{
		OperationID: "listWebhooks", Method: http.MethodGet, Path: "/webhooks", Tags: tags,
		Summary: "List webhooks", Description: "The caller's webhooks, without secrets." + mirrored,
		Security: security, Errors: []int{401, 403, 429},
	}, a.listWebhooks)
	both(a, alias, huma.Operation{
		OperationID: "getWebhook", Method: http.MethodGet, Path: "/webhooks/{webhook_id}", Tags: tags,
		Summary: "Get a webhook", Description: "A webhook of another account is 404." + mirrored,
		Security: security, Errors: []int{401, 403, 404, 429},
	}, a.getWebhook)
	both(a, alias, huma.Operation{
		OperationID: "updateWebhook", Method: http.MethodPatch, Path: "/webhooks/{webhook_id}", Tags: tags,
		Summary: "Update a webhook",
		Description: "Changes the URL, the events or `is_active`; absent fields are kept. The secret never changes. " +
			"Remaining attempts of queued deliveries go to the new URL; deactivating cancels them." + mirrored,
		Security: security, Errors: []int{401, 403, 404, 422, 429},
	}, a.updateWebhook)
	both(a, alias, huma.Operation{
		OperationID: "deleteWebhook", Method: http.MethodDelete, Path: "/webhooks/{webhook_id}", Tags: tags,
		Summary: "Delete a webhook", Description: "Removes the webhook, its queued deliveries and its history." + mirrored,
		DefaultStatus: http.StatusNoContent, Security: security, Errors: []int{401, 403, 404, 429},
	}, a.deleteWebhook)
	both(a, alias, huma.Operation{
		OperationID: "testWebhook", Method: http.MethodPost, Path: "/webhooks/{webhook_id}/test", Tags: tags,
		Summary: "Send a test ping",
		Description: "Queues a `webhook.test` event to the webhook, delivered, signed and retried like job events; " +
			"its attempts appear in the delivery history. Payload: " +
			"`{id, event: \"webhook.test\", timestamp, data: {webhook_id, user_id, message}}`. An inactive webhook is 422." + mirrored,
		DefaultStatus: http.StatusAccepted, Security: security, Errors: []int{401, 403, 404, 422, 429},
	}, a.testWebhook)
	both(a, alias, huma.Operation{
		OperationID: "webhookDeliveries", Method: http.MethodGet, Path: "/webhooks/{webhook_id}/deliveries", Tags: tags,
		Summary: "Delivery history",
		Description: "Every delivery attempt to the webhook, newest first: event id, attempt number, time, response status, latency and error. " +
			"Kept for 30 days." + mirrored,
		Security: security, Errors: []int{401, 403, 404, 429},
	}, a.webhookDeliveries)

	for p, item := range alias.OpenAPI().Paths {
		cp := *item
		a.api.OpenAPI().Paths[p] = &cp
	}
}

// both registers op under /v1 and under /api.
func both[I, O any](a *API, alias huma.API, op huma.Operation, h func(context.Context, *I) (*O, error)) {
	huma.Register(a.api, op, h)
	m := op
	m.OperationID += "Api"
	m.Path = "/api" + op.Path
	m.Servers = []*huma.Server{{URL: "/", Description: "The specification's webhook path lies outside /v1"}}
	huma.Register(alias, m, h)
}

func webhookOut(w *webhook.Webhook) Webhook {
	ev := w.Events
	if ev == nil {
		ev = []string{}
	}
	return Webhook{ID: w.ID, URL: w.URL, Events: ev, IsActive: w.Active, CreatedAt: w.CreatedAt}
}

func (a *API) registerWebhook(ctx context.Context, in *webhookInput) (*webhookOutput, error) {
	w, err := a.svc.Webhooks.RegisterWebhook(ctx, caller(ctx), in.Body.URL, in.Body.Events)
	if err != nil {
		return nil, a.fail(err)
	}
	return &webhookOutput{Location: Prefix + "/webhooks/" + w.ID, Body: WebhookRegistration{
		ID: w.ID, URL: w.URL, Events: w.Events, Secret: w.Secret, IsActive: w.Active, CreatedAt: w.CreatedAt,
	}}, nil
}

func (a *API) listWebhooks(ctx context.Context, _ *authInput) (*webhookListOutput, error) {
	ws, err := a.svc.Webhooks.ListWebhooks(ctx, caller(ctx))
	if err != nil {
		return nil, a.fail(err)
	}
	out := &webhookListOutput{Body: WebhookList{Webhooks: make([]Webhook, 0, len(ws))}}
	for _, w := range ws {
		out.Body.Webhooks = append(out.Body.Webhooks, webhookOut(w))
	}
	return out, nil
}

func (a *API) getWebhook(ctx context.Context, in *webhookIDInput) (*webhookGetOutput, error) {
	w, err := a.svc.Webhooks.GetWebhook(ctx, caller(ctx), in.WebhookID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &webhookGetOutput{Body: webhookOut(w)}, nil
}

func (a *API) updateWebhook(ctx context.Context, in *webhookUpdateInput) (*webhookGetOutput, error) {
	w, err := a.svc.Webhooks.UpdateWebhook(ctx, caller(ctx), in.WebhookID, service.WebhookUpdate{
		URL: in.Body.URL, Events: in.Body.Events, Active: in.Body.IsActive,
	})
	if err != nil {
		return nil, a.fail(err)
	}
	return &webhookGetOutput{Body: webhookOut(w)}, nil
}

func (a *API) deleteWebhook(ctx context.Context, in *webhookIDInput) (*struct{}, error) {
	if err := a.svc.Webhooks.DeleteWebhook(ctx, caller(ctx), in.WebhookID); err != nil {
		return nil, a.fail(err)
	}
	return &struct{}{}, nil
}

func (a *API) testWebhook(ctx context.Context, in *webhookIDInput) (*webhookTestOutput, error) {
	id, err := a.svc.Webhooks.TestWebhook(ctx, caller(ctx), in.WebhookID)
	if err != nil {
		return nil, a.fail(err)
	}
	return &webhookTestOutput{Location: Prefix + "/webhooks/" + in.WebhookID + "/deliveries",
		Body: WebhookTest{EventID: id, Event: webhook.EventTest, WebhookID: in.WebhookID}}, nil
}

func (a *API) webhookDeliveries(ctx context.Context, in *deliveriesInput) (*deliveriesOutput, error) {
	hist, err := a.svc.Webhooks.WebhookDeliveries(ctx, caller(ctx), in.WebhookID, in.Limit)
	if err != nil {
		return nil, a.fail(err)
	}
	out := &deliveriesOutput{Body: WebhookDeliveries{Deliveries: make([]WebhookDelivery, 0, len(hist))}}
	for _, h := range hist {
		d := WebhookDelivery{
			DeliveryID: h.DeliveryID, EventID: h.EventID, Event: h.Event, Attempt: h.Attempt, AttemptedAt: h.At,
			State: h.State, LatencyMS: math.Round(float64(h.Latency.Microseconds())) / 1000,
		}
		if h.StatusCode != 0 {
			d.ResponseStatus = &h.StatusCode
		}
		if h.Error != "" {
			d.Error = &h.Error
		}
		out.Body.Deliveries = append(out.Body.Deliveries, d)
	}
	return out, nil
}

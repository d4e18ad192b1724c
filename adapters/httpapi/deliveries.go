package httpapi

import (
	"reflect"

	"github.com/danielgtaylor/huma/v2"

	whsend "github.com/dragoman-translate/dragoman/adapters/webhook"
	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// describeDeliveries puts what the service POSTs to receivers into the
// contract's OpenAPI 3.1 `webhooks` section: one entry per event, whose
// request body schema is generated from the very types the notifier
// marshals (core/webhook.JobEvent and TestEvent), and whose headers are
// the ones every attempt carries. A receiver generates its types from it.
func (a *API) describeDeliveries() {
	o := a.api.OpenAPI()
	reg := o.Components.Schemas
	job := reg.Schema(reflect.TypeFor[webhook.JobEvent](), true, "")
	ping := reg.Schema(reflect.TypeFor[webhook.TestEvent](), true, "")
	o.Webhooks = map[string]*huma.PathItem{
		webhook.EventJobCompleted: delivery("jobCompletedDelivery", webhook.EventJobCompleted, job,
			"A job completed",
			"Sent when a job the account submitted completed (and again, with its own id and data.revision, for each output rebuilt from post-edited XLIFF). "+
				"data.docx_url (and data.pdf_url when a PDF was asked for and rendered) is the absolute download address; data.error is null."),
		webhook.EventJobFailed: delivery("jobFailedDelivery", webhook.EventJobFailed, job,
			"A job failed",
			"Sent when a job the account submitted failed or was cancelled; data.error says why, data.docx_url and data.pdf_url are null."),
		webhook.EventTest: delivery("testDelivery", webhook.EventTest, ping,
			"A test ping",
			"Sent by POST /webhooks/{webhook_id}/test, signed and retried like job events."),
	}
}

// delivery is one event's entry in the webhooks section.
func delivery(id, event string, body *huma.Schema, summary, desc string) *huma.PathItem {
	str := func(s huma.Schema) *huma.Schema { s.Type = "string"; return &s }
	return &huma.PathItem{Post: &huma.Operation{
		OperationID: id, Tags: []string{"Webhooks"}, Summary: summary,
		Description: desc + " Each attempt is an HTTPS POST of application/json to the registered URL. " +
			"Verify the signature over the raw body before parsing it. Answer 2xx within 15 s; any other answer, or none, " +
			"is retried: 3 attempts, 0 s, 2 s and 4 s apart, each with the same body and X-Webhook-Id.",
		Security: noSecurity,
		Parameters: []*huma.Param{
			{Name: signature.Header, In: "header", Required: true,
				Description: "sha256= followed by the lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook's secret (the 64 characters returned at registration, used as they are)",
				Schema:      str(huma.Schema{Pattern: "^sha256=[0-9a-f]{64}$"}), Example: "sha256=5d5b09f6dcb2d53a5fffc60c4ac0d55fabdf556069d6631545f42aa6e3500f2e"},
			{Name: whsend.HeaderID, In: "header", Required: true,
				Description: "The event id: the body's id, the same in every attempt", Schema: str(huma.Schema{Format: "uuid"})},
			{Name: whsend.HeaderEvent, In: "header", Required: true,
				Description: "The event kind: the body's event", Schema: str(huma.Schema{Enum: []any{event}})},
			{Name: whsend.HeaderAttempt, In: "header", Required: true,
				Description: "The attempt's number: 1, 2 or 3",
				Schema:      &huma.Schema{Type: "integer", Minimum: ptr(1.0), Maximum: ptr(3.0)}},
		},
		RequestBody: &huma.RequestBody{Required: true, Content: map[string]*huma.MediaType{
			"application/json": {Schema: body},
		}},
		Responses: map[string]*huma.Response{
			"200":     {Description: "Any 2xx answer within 15 s acknowledges the delivery; its body is ignored"},
			"default": {Description: "Any other answer, or none within 15 s: the attempt failed and the delivery is retried while attempts remain"},
		},
	}}
}

package client

import (
	"context"
	"net/http"
	"reflect"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/openapi/client/gen"
)

// Models of the contract, re-exported from the generated package.
type (
	Job                 = gen.JobStatus
	JobList             = gen.JobList
	Usage               = gen.UsageOutputBody
	Webhook             = gen.Webhook
	WebhookRegistration = gen.WebhookRegistration
	WebhookDelivery     = gen.WebhookDelivery
	WebhookTest         = gen.WebhookTest
)

func jobID(id string) (uuid.UUID, error) {
	u, err := uuid.Parse(id)
	if err != nil {
		return u, &APIError{Status: http.StatusNotFound, Code: "not_found", Message: "job " + id + " not found: not a job id"}
	}
	return u, nil
}

// Job reads a job's status.
func (c *Client) Job(ctx context.Context, id string) (*Job, error) {
	u, err := jobID(id)
	if err != nil {
		return nil, err
	}
	r, err := c.API.GetJobWithResponse(ctx, u)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// Jobs reads one page of the caller's jobs, newest first; status "" lists
// every status, cursor "" is the first page, limit 0 the server's default.
func (c *Client) Jobs(ctx context.Context, status, cursor string, limit int) (*JobList, error) {
	p := &gen.ListJobsParams{}
	if status != "" {
		s := gen.ListJobsParamsStatus(status)
		p.Status = &s
	}
	if cursor != "" {
		p.Cursor = &cursor
	}
	if limit > 0 {
		l := int64(limit)
		p.Limit = &l
	}
	r, err := c.API.ListJobsWithResponse(ctx, p)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// Cancel cancels a pending or processing job and returns it (failed,
// "cancelled"); a finished job is deleted and nil is returned.
func (c *Client) Cancel(ctx context.Context, id string) (*Job, error) {
	return c.cancel(ctx, id, nil)
}

// CancelUnfinished cancels a pending or processing job and returns it; a
// job that finished meanwhile is left as it is and returned (never
// deleted), so stopping the jobs one started keeps a translation that
// completed just before.
func (c *Client) CancelUnfinished(ctx context.Context, id string) (*Job, error) {
	keep := true
	return c.cancel(ctx, id, &gen.CancelJobParams{KeepFinished: &keep})
}

func (c *Client) cancel(ctx context.Context, id string, p *gen.CancelJobParams) (*Job, error) {
	u, err := jobID(id)
	if err != nil {
		return nil, err
	}
	if p == nil {
		p = &gen.CancelJobParams{}
	}
	r, err := c.API.CancelJobWithResponse(ctx, u, p)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// Usage reads the word usage of the current billing period.
func (c *Client) Usage(ctx context.Context) (*Usage, error) {
	r, err := c.API.UsageWithResponse(ctx)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON200, nil
}

// Languages lists the target languages, only those reachable from source
// when it is not "".
func (c *Client) Languages(ctx context.Context, source string) ([]string, error) {
	p := &gen.LanguagesParams{}
	if source != "" {
		p.SourceLang = &source
	}
	r, err := c.API.LanguagesWithResponse(ctx, p)
	if err := result(r, err); err != nil {
		return nil, err
	}
	if r.JSON200.Languages == nil {
		return []string{}, nil
	}
	return *r.JSON200.Languages, nil
}

// AddWebhook registers a receiver; the answer carries the secret, once.
func (c *Client) AddWebhook(ctx context.Context, url string, events []string) (*WebhookRegistration, error) {
	ev := make([]gen.WebhookRequestEvents, len(events))
	for i, e := range events {
		ev[i] = gen.WebhookRequestEvents(e)
	}
	r, err := c.API.RegisterWebhookWithResponse(ctx, gen.WebhookRequest{Url: url, Events: &ev})
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON201, nil
}

// Webhooks lists the caller's webhooks.
func (c *Client) Webhooks(ctx context.Context) ([]Webhook, error) {
	r, err := c.API.ListWebhooksWithResponse(ctx)
	if err := result(r, err); err != nil {
		return nil, err
	}
	if r.JSON200.Webhooks == nil {
		return []Webhook{}, nil
	}
	return *r.JSON200.Webhooks, nil
}

// TestWebhook queues a webhook.test event to the webhook.
func (c *Client) TestWebhook(ctx context.Context, id string) (*WebhookTest, error) {
	r, err := c.API.TestWebhookWithResponse(ctx, id)
	if err := result(r, err); err != nil {
		return nil, err
	}
	return r.JSON202, nil
}

// WebhookDeliveries is a webhook's delivery history, newest first.
func (c *Client) WebhookDeliveries(ctx context.Context, id string, limit int) ([]WebhookDelivery, error) {
	p := &gen.WebhookDeliveriesParams{}
	if limit > 0 {
		l := int64(limit)
		p.Limit = &l
	}
	r, err := c.API.WebhookDeliveriesWithResponse(ctx, id, p)
	if err := result(r, err); err != nil {
		return nil, err
	}
	if r.JSON200.Deliveries == nil {
		return []WebhookDelivery{}, nil
	}
	return *r.JSON200.Deliveries, nil
}

// DeleteWebhook removes a webhook.
func (c *Client) DeleteWebhook(ctx context.Context, id string) error {
	r, err := c.API.DeleteWebhookWithResponse(ctx, id)
	return result(r, err)
}

// generated is what every generated response offers.
type generated interface {
	StatusCode() int
	GetBody() []byte
}

// result is the error of a generated call: its transport error, or the
// API error of a non-2xx answer.
func result(r generated, err error) error {
	if err != nil {
		return err
	}
	var h http.Header
	if v := reflect.ValueOf(r); v.Kind() == reflect.Pointer && !v.IsNil() {
		if f := v.Elem().FieldByName("HTTPResponse"); f.IsValid() {
			if hr, ok := f.Interface().(*http.Response); ok && hr != nil {
				h = hr.Header
			}
		}
	}
	return apiError(r.StatusCode(), h, r.GetBody())
}

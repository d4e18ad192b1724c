package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// TestWebhook queues a webhook.test ping to one of the caller's active
// webhooks, delivered, signed and retried like a job event. It returns
// the ping's event id, which the delivery history shows.
func (s *Webhooks) TestWebhook(ctx context.Context, c *Caller, id string) (string, error) {
	w, err := s.GetWebhook(ctx, c, id)
	if err != nil {
		return "", err
	}
	if !w.Active {
		return "", fail(KindUnprocessable, "the webhook is inactive: activate it to send a test ping")
	}
	now := s.Clock.Now()
	eventID := s.NewID()
	body, err := webhook.PingPayload(eventID, w, now)
	if err != nil {
		return "", err
	}
	d := &webhook.Delivery{
		ID: s.NewID(), WebhookID: w.ID, AccountID: w.AccountID, EventID: eventID,
		Event: webhook.EventTest, Payload: body, CreatedAt: now,
	}
	if _, err := s.Webhooks.EnqueueDelivery(ctx, d); err != nil {
		return "", err
	}
	return eventID, nil
}

package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// WebhookDeliveries is the delivery history of one of the caller's
// webhooks, newest attempt first, at most limit lines.
func (s *Webhooks) WebhookDeliveries(ctx context.Context, c *Caller, id string, limit int) ([]webhook.Attempt, error) {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return nil, err
	}
	return s.Webhooks.ListAttempts(ctx, id, limit)
}

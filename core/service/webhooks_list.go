package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// ListWebhooks lists the caller's webhooks, oldest first.
func (s *Webhooks) ListWebhooks(ctx context.Context, c *Caller) ([]*webhook.Webhook, error) {
	return s.Webhooks.ListWebhooks(ctx, c.Account.ID)
}

package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// ListWebhooks lists the caller's webhooks, oldest first.
func (s *Service) ListWebhooks(ctx context.Context, c *Caller) ([]*webhook.Webhook, error) {
	return s.Webhooks.ListWebhooks(ctx, c.Account.ID)
}

// GetWebhook reads one of the caller's webhooks; another account's is
// not found.
func (s *Service) GetWebhook(ctx context.Context, c *Caller, id string) (*webhook.Webhook, error) {
	w, err := s.Webhooks.GetWebhook(ctx, id)
	if errors.Is(err, ports.ErrNotFound) || (err == nil && w.AccountID != c.Account.ID) {
		return nil, fail(KindNotFound, "webhook not found")
	}
	return w, err
}

// WebhookDeliveries is the delivery history of one of the caller's
// webhooks, newest attempt first, at most limit lines.
func (s *Service) WebhookDeliveries(ctx context.Context, c *Caller, id string, limit int) ([]webhook.Attempt, error) {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return nil, err
	}
	return s.Webhooks.ListAttempts(ctx, id, limit)
}

package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// GetWebhook reads one of the caller's webhooks; another account's is
// not found.
func (s *Webhooks) GetWebhook(ctx context.Context, c *Caller, id string) (*webhook.Webhook, error) {
	w, err := s.Webhooks.GetWebhook(ctx, id)
	if errors.Is(err, ports.ErrNotFound) || (err == nil && w.AccountID != c.Account.ID) {
		return nil, fail(KindNotFound, "webhook not found")
	}
	return w, err
}

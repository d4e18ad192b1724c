package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// DeleteWebhook removes one of the caller's webhooks with its history;
// deliveries still queued for it are dropped.
func (s *Webhooks) DeleteWebhook(ctx context.Context, c *Caller, id string) error {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return err
	}
	err := s.Webhooks.DeleteWebhook(ctx, id)
	if errors.Is(err, ports.ErrNotFound) {
		return fail(KindNotFound, "webhook not found")
	}
	return err
}

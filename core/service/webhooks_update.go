package service

import (
	"context"
	"strings"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// WebhookUpdate changes a webhook; nil fields are left as they are.
type WebhookUpdate struct {
	URL    *string
	Events []string
	Active *bool
}

// UpdateWebhook changes the URL, events or active flag of one of the
// caller's webhooks. The secret never changes.
func (s *Webhooks) UpdateWebhook(ctx context.Context, c *Caller, id string, u WebhookUpdate) (*webhook.Webhook, error) {
	if u.URL != nil {
		if err := s.checkWebhookURL(*u.URL); err != nil {
			return nil, err
		}
	}
	var evs []string
	if u.Events != nil {
		var err error
		if evs, err = webhookEvents(u.Events); err != nil {
			return nil, err
		}
	}
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return nil, err
	}
	return s.Webhooks.UpdateWebhook(ctx, id, func(w *webhook.Webhook) error {
		if w.AccountID != c.Account.ID {
			return fail(KindNotFound, "webhook not found")
		}
		if u.URL != nil {
			w.URL = strings.TrimSpace(*u.URL)
		}
		if evs != nil {
			w.Events = evs
		}
		if u.Active != nil {
			w.Active = *u.Active
		}
		return nil
	})
}

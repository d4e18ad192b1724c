package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"

	"github.com/dragoman-translate/dragoman/core/webhook"
)

// RegisterWebhook stores a receiver for the caller's job events. The secret
// is returned here once and never again.
func (s *Webhooks) RegisterWebhook(ctx context.Context, c *Caller, rawURL string, events []string) (*webhook.Webhook, error) {
	if err := s.checkWebhookURL(rawURL); err != nil {
		return nil, err
	}
	evs, err := webhookEvents(events)
	if err != nil {
		return nil, err
	}
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, err
	}
	w := &webhook.Webhook{
		ID: s.NewID(), AccountID: c.Account.ID, URL: strings.TrimSpace(rawURL), Events: evs,
		Secret: hex.EncodeToString(secret[:]), Active: true, CreatedAt: s.Clock.Now(),
	}
	if err := s.Webhooks.CreateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

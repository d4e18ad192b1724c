package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Webhook events a receiver may subscribe to.
const (
	EventCompleted = "job.completed"
	EventFailed    = "job.failed"
)

// RegisterWebhook stores a receiver for the caller's job events. The secret
// is returned here once and never again.
func (s *Service) RegisterWebhook(ctx context.Context, c *Caller, rawURL string, events []string) (*ports.Webhook, error) {
	if err := s.checkWebhookURL(rawURL); err != nil {
		return nil, err
	}
	if len(events) == 0 {
		return nil, fail(KindUnprocessable, "events: give at least one of %s, %s", EventCompleted, EventFailed)
	}
	seen := map[string]bool{}
	var evs []string
	for _, e := range events {
		if e != EventCompleted && e != EventFailed {
			return nil, fail(KindUnprocessable, "events: %q is not one of %s, %s", e, EventCompleted, EventFailed)
		}
		if !seen[e] {
			seen[e] = true
			evs = append(evs, e)
		}
	}
	var secret [32]byte
	if _, err := rand.Read(secret[:]); err != nil {
		return nil, err
	}
	w := &ports.Webhook{
		ID: s.NewID(), AccountID: c.Account.ID, URL: rawURL, Events: evs,
		Secret: hex.EncodeToString(secret[:]), Active: true, CreatedAt: s.Clock.Now(),
	}
	if err := s.Webhooks.CreateWebhook(ctx, w); err != nil {
		return nil, err
	}
	return w, nil
}

// checkWebhookURL accepts absolute https URLs (http too where private URLs
// are allowed). Addresses are checked again at every delivery, after DNS.
func (s *Service) checkWebhookURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || !u.IsAbs() {
		return fail(KindUnprocessable, "url: not an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && s.Config.AllowPrivateURLs:
	default:
		return fail(KindUnprocessable, "url: webhooks are delivered over https only")
	}
	if u.User != nil {
		return fail(KindUnprocessable, "url: credentials in the URL are not accepted")
	}
	return nil
}

package service

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/netip"
	"net/url"
	"strings"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// RegisterWebhook stores a receiver for the caller's job events. The secret
// is returned here once and never again.
func (s *Service) RegisterWebhook(ctx context.Context, c *Caller, rawURL string, events []string) (*webhook.Webhook, error) {
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

// webhookEvents checks and de-duplicates subscribed events.
func webhookEvents(events []string) ([]string, error) {
	if len(events) == 0 {
		return nil, fail(KindUnprocessable, "events: give at least one of %s, %s", webhook.EventJobCompleted, webhook.EventJobFailed)
	}
	seen := map[string]bool{}
	var evs []string
	for _, e := range events {
		if e != webhook.EventJobCompleted && e != webhook.EventJobFailed {
			return nil, fail(KindUnprocessable, "events: %q is not one of %s, %s", e, webhook.EventJobCompleted, webhook.EventJobFailed)
		}
		if !seen[e] {
			seen[e] = true
			evs = append(evs, e)
		}
	}
	return evs, nil
}

// checkWebhookURL accepts absolute https URLs (http too where private URLs
// are allowed). An IP literal inside the service's network is refused
// here for a clear error; every delivery checks the resolved address again
// when it connects, so names that resolve inside are refused too.
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
	if s.Config.AllowPrivateURLs {
		return nil
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return fail(KindUnprocessable, "url: a loopback address is not accepted")
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		ip = ip.Unmap()
		if !ip.IsGlobalUnicast() || ip.IsPrivate() {
			return fail(KindUnprocessable, "url: the address is not public")
		}
	}
	return nil
}

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

// WebhookUpdate changes a webhook; nil fields are left as they are.
type WebhookUpdate struct {
	URL    *string
	Events []string
	Active *bool
}

// UpdateWebhook changes the URL, events or active flag of one of the
// caller's webhooks. The secret never changes.
func (s *Service) UpdateWebhook(ctx context.Context, c *Caller, id string, u WebhookUpdate) (*webhook.Webhook, error) {
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

// DeleteWebhook removes one of the caller's webhooks with its history;
// deliveries still queued for it are dropped.
func (s *Service) DeleteWebhook(ctx context.Context, c *Caller, id string) error {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return err
	}
	err := s.Webhooks.DeleteWebhook(ctx, id)
	if errors.Is(err, ports.ErrNotFound) {
		return fail(KindNotFound, "webhook not found")
	}
	return err
}

// TestWebhook queues a webhook.test ping to one of the caller's active
// webhooks, delivered, signed and retried like a job event. It returns
// the ping's event id, which the delivery history shows.
func (s *Service) TestWebhook(ctx context.Context, c *Caller, id string) (string, error) {
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

// WebhookDeliveries is the delivery history of one of the caller's
// webhooks, newest attempt first, at most limit lines.
func (s *Service) WebhookDeliveries(ctx context.Context, c *Caller, id string, limit int) ([]webhook.Attempt, error) {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return nil, err
	}
	return s.Webhooks.ListAttempts(ctx, id, limit)
}

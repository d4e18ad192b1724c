package service

import (
	"context"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Webhook events a receiver may subscribe to, and the test ping.
const (
	EventCompleted = ports.EventJobCompleted
	EventFailed    = ports.EventJobFailed
	EventTest      = "webhook.test"
)

// RegisterWebhook stores a receiver for the caller's job events. The secret
// is returned here once and never again.
func (s *Service) RegisterWebhook(ctx context.Context, c *Caller, rawURL string, events []string) (*ports.Webhook, error) {
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
	w := &ports.Webhook{
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
func (s *Service) ListWebhooks(ctx context.Context, c *Caller) ([]*ports.Webhook, error) {
	return s.Webhooks.ListWebhooks(ctx, c.Account.ID)
}

// GetWebhook reads one of the caller's webhooks; another account's is
// not found.
func (s *Service) GetWebhook(ctx context.Context, c *Caller, id string) (*ports.Webhook, error) {
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
func (s *Service) UpdateWebhook(ctx context.Context, c *Caller, id string, u WebhookUpdate) (*ports.Webhook, error) {
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
	return s.Webhooks.UpdateWebhook(ctx, id, func(w *ports.Webhook) error {
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
	body, err := PingPayload(eventID, w, now)
	if err != nil {
		return "", err
	}
	d := &ports.WebhookDelivery{
		ID: s.NewID(), WebhookID: w.ID, AccountID: w.AccountID, EventID: eventID,
		Event: EventTest, Payload: body, CreatedAt: now,
	}
	if _, err := s.Webhooks.EnqueueDelivery(ctx, d); err != nil {
		return "", err
	}
	return eventID, nil
}

// WebhookDeliveries is the delivery history of one of the caller's
// webhooks, newest attempt first, at most limit lines.
func (s *Service) WebhookDeliveries(ctx context.Context, c *Caller, id string, limit int) ([]ports.DeliveryAttempt, error) {
	if _, err := s.GetWebhook(ctx, c, id); err != nil {
		return nil, err
	}
	return s.Webhooks.ListAttempts(ctx, id, limit)
}

// WebhookPayload is the body of every delivery (specification §6.3).
// Its id is stable per event, so receivers de-duplicate retries by it.
type WebhookPayload struct {
	ID        string `json:"id"`
	Event     string `json:"event"`
	Timestamp string `json:"timestamp"`
	Data      any    `json:"data"`
}

// JobEventData is the data of job.completed and job.failed.
type JobEventData struct {
	JobID          string  `json:"job_id"`
	UserID         string  `json:"user_id"`
	Status         string  `json:"status"`
	OriginalName   string  `json:"original_name"`
	DocxURL        *string `json:"docx_url"`
	PdfURL         *string `json:"pdf_url"`
	TotalWords     int     `json:"total_words"`
	TargetLanguage string  `json:"target_language"`
	Error          *string `json:"error"`
}

// TestEventData is the data of a webhook.test ping.
type TestEventData struct {
	WebhookID string `json:"webhook_id"`
	UserID    string `json:"user_id"`
	Message   string `json:"message"`
}

// TimestampLayout is ISO 8601 in UTC with milliseconds.
const TimestampLayout = "2006-01-02T15:04:05.000Z"

// eventNamespace is the UUIDv5 namespace of event ids (a fixed random UUID).
var eventNamespace = [16]byte{0x3b, 0x6f, 0x0c, 0x52, 0x8d, 0x41, 0x4e, 0x8a, 0x9f, 0x27, 0x61, 0xd0, 0x5c, 0x13, 0xa4, 0xe9}

// EventID is the id of a job's event: a UUIDv5 of the job id and event, so
// the same event gets the same id however often it is announced.
func EventID(jobID, event string) string {
	h := sha1.New()
	h.Write(eventNamespace[:])
	h.Write([]byte(jobID + "\x00" + event))
	var u [16]byte
	copy(u[:], h.Sum(nil))
	u[6] = u[6]&0x0f | 0x50 // version 5
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	b := hex.EncodeToString(u[:])
	return b[0:8] + "-" + b[8:12] + "-" + b[12:16] + "-" + b[16:20] + "-" + b[20:]
}

// JobEventPayload is the exact body announcing event for j. Its timestamp
// is the job's completion time, so announcing twice gives the same bytes.
// docx_url is publicURL + /v1/jobs/<id>/download for a completed job.
func JobEventPayload(j *job.Job, event, publicURL string) ([]byte, error) {
	at := j.UpdatedAt
	if j.CompletedAt != nil {
		at = *j.CompletedAt
	}
	d := JobEventData{
		JobID: j.ID, UserID: j.AccountID, Status: string(j.Status), OriginalName: j.OriginalName,
		TotalWords: j.Words, TargetLanguage: j.TargetLang,
	}
	if event == EventCompleted {
		u := strings.TrimRight(publicURL, "/") + "/v1/jobs/" + j.ID + "/download"
		d.DocxURL = &u
	}
	if event == EventFailed {
		msg := j.Error
		if msg == "" {
			msg = "translation failed"
		}
		d.Error = &msg
	}
	return json.Marshal(WebhookPayload{ID: EventID(j.ID, event), Event: event, Timestamp: at.UTC().Format(TimestampLayout), Data: d})
}

// PingPayload is the body of a webhook.test ping.
func PingPayload(eventID string, w *ports.Webhook, now time.Time) ([]byte, error) {
	return json.Marshal(WebhookPayload{ID: eventID, Event: EventTest, Timestamp: now.UTC().Format(TimestampLayout), Data: TestEventData{
		WebhookID: w.ID, UserID: w.AccountID,
		Message: "Test delivery from Dragoman: your endpoint received and can verify signed webhooks.",
	}})
}

// Package webhook holds what the core knows about webhooks: the
// registrations, the deliveries queued for them and their history, the
// events a receiver may subscribe to, the exact bytes each delivery sends,
// the retry schedule, and the ports the stores and the notifier implement.
// The use cases that manage webhooks are in package service; the adapter
// that signs and sends deliveries is adapters/webhook.
package webhook

import (
	"context"
	"errors"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// The events a receiver may subscribe to, and the test ping.
const (
	EventJobCompleted = "job.completed"
	EventJobFailed    = "job.failed"
	EventTest         = "webhook.test"
)

// ErrLeaseLost is returned by Queue.FinishAttempt when the claim expired
// and another worker took the delivery over.
var ErrLeaseLost = errors.New("delivery claim expired")

// Webhook is a registered receiver.
type Webhook struct {
	ID        string
	AccountID string
	URL       string
	Events    []string
	Secret    string // plain secret; the store encrypts it at rest
	Active    bool
	CreatedAt time.Time
}

// Delivery is one event queued for one webhook. Payload is the exact body
// every attempt sends.
type Delivery struct {
	ID        string
	WebhookID string
	AccountID string
	EventID   string
	Event     string
	Payload   []byte
	CreatedAt time.Time
}

// Claim is one attempt a worker owns: the delivery, the webhook's current
// URL and secret, and the attempt's number (from 1).
type Claim struct {
	Delivery Delivery
	URL      string
	Secret   string
	Attempt  int
	At       time.Time
}

// States of a delivery attempt.
const (
	AttemptInProgress = "in_progress"
	AttemptSucceeded  = "succeeded"
	AttemptFailed     = "failed"
)

// Attempt is one line of a webhook's delivery history.
type Attempt struct {
	DeliveryID string
	WebhookID  string
	EventID    string
	Event      string
	Attempt    int
	At         time.Time
	State      string // AttemptInProgress, AttemptSucceeded, AttemptFailed
	StatusCode int    // 0: no HTTP response
	Latency    time.Duration
	Error      string
}

// AttemptResult is what one delivery attempt got back.
type AttemptResult struct {
	OK         bool // a 2xx response
	StatusCode int  // 0: no HTTP response
	Latency    time.Duration
	Error      string
}

// Store keeps webhook registrations, the deliveries queued for them and
// the history of every delivery attempt.
type Store interface {
	CreateWebhook(ctx context.Context, w *Webhook) error
	ListWebhooks(ctx context.Context, accountID string) ([]*Webhook, error)
	// GetWebhook reads one webhook of any account; ports.ErrNotFound if none.
	GetWebhook(ctx context.Context, id string) (*Webhook, error)
	// UpdateWebhook reads, changes and writes a webhook atomically (URL,
	// events, active flag; the secret and owner are kept).
	UpdateWebhook(ctx context.Context, id string, fn func(*Webhook) error) (*Webhook, error)
	// DeleteWebhook removes a webhook with its deliveries and history.
	DeleteWebhook(ctx context.Context, id string) error
	// EnqueueDelivery queues d, due now, unless the webhook already has a
	// delivery of d.EventID: it reports whether d was added.
	EnqueueDelivery(ctx context.Context, d *Delivery) (added bool, err error)
	// ListAttempts is a webhook's delivery history, newest first.
	ListAttempts(ctx context.Context, webhookID string, limit int) ([]Attempt, error)
}

// Queue hands due deliveries to workers, which may run in several
// processes on one database.
type Queue interface {
	// ClaimDeliveries takes up to max deliveries due at now in one short
	// write transaction and numbers each one's next attempt, so no attempt
	// is ever sent twice. A claim not finished within lease counts as an
	// interrupted attempt and the delivery is due again; one that has had
	// maxAttempts attempts is abandoned instead. It takes only deliveries
	// admit accepts (nil: any), and looks at a few of each webhook's at a
	// time, so the deliveries of a webhook that piled up (its receiver
	// hangs) do not hide the others'.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, max, maxAttempts int, admit Admit) ([]*Claim, error)
	// FinishAttempt records the attempt's result. next nil ends the
	// delivery (delivered if r.OK, else abandoned); otherwise it is due
	// again at *next.
	FinishAttempt(ctx context.Context, c *Claim, r AttemptResult, next *time.Time) error
}

// Admit says whether a worker may start an attempt for a due delivery of
// an account to a URL now, and counts it when it may. The queue asks
// before it claims, so a delivery turned away stays due.
type Admit func(accountID, url string) bool

// Notifier tells the outside world that a job finished: it queues the
// event for the account's webhooks.
type Notifier interface {
	Notify(ctx context.Context, j *job.Job, event string) error
}

// DefaultDelays are the retry delays of README "Webhooks": the wait
// before each attempt, so their number is the number of attempts.
var DefaultDelays = []time.Duration{0, 2 * time.Second, 4 * time.Second}

// Package ports declares what the core needs from the outside world. The
// adapters implement these interfaces; the core never imports an adapter.
package ports

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/segment"
)

// ErrNotFound is returned by stores for a missing record.
var ErrNotFound = errors.New("not found")

// ErrBadDocument marks errors caused by the document itself (corrupt,
// encrypted, unsupported): retrying cannot help, the job fails at once.
var ErrBadDocument = errors.New("bad document")

// ErrQuotaExceeded is returned by UsageStore.Reserve when the words do not fit.
var ErrQuotaExceeded = errors.New("monthly word quota exhausted")

// ErrLeaseLost is returned by DeliveryQueue.FinishAttempt when the claim
// expired and another worker took the delivery over.
var ErrLeaseLost = errors.New("delivery claim expired")

// Clock tells the time; tests move it.
type Clock interface{ Now() time.Time }

// JobStore keeps jobs.
type JobStore interface {
	CreateJob(ctx context.Context, j *job.Job) error
	GetJob(ctx context.Context, id string) (*job.Job, error)
	// UpdateJob reads, changes and writes a job atomically. fn may refuse
	// with an error, which is returned and nothing is written.
	UpdateJob(ctx context.Context, id string, fn func(*job.Job) error) (*job.Job, error)
	// CompletedBefore lists completed jobs whose output is still stored
	// and that completed before t.
	CompletedBefore(ctx context.Context, t time.Time) ([]*job.Job, error)
	// DeleteJobsBefore removes jobs created before t and returns their ids.
	DeleteJobsBefore(ctx context.Context, t time.Time) ([]string, error)
	// Unfinished lists jobs that are not terminal (for recovery at start).
	Unfinished(ctx context.Context) ([]*job.Job, error)
}

// AccountStore keeps accounts and API keys.
type AccountStore interface {
	CreateAccount(ctx context.Context, a *account.Account) error
	GetAccount(ctx context.Context, id string) (*account.Account, error)
	UpdateAccount(ctx context.Context, id string, fn func(*account.Account) error) (*account.Account, error)
	CreateKey(ctx context.Context, k account.Key) error
	KeyByHash(ctx context.Context, hash string) (*account.Key, error)
	RevokeKey(ctx context.Context, keyID string, at time.Time) error
}

// UsageStore keeps word usage per account and billing period. Words are
// reserved for a job when its text is extracted and released if it fails,
// so a failed job charges nothing and concurrent jobs never overrun.
type UsageStore interface {
	// Reserve adds words for jobID to the period if used+words <= limit
	// (limit nil: unlimited); ErrQuotaExceeded otherwise. Reserving the
	// same job twice is a no-op.
	Reserve(ctx context.Context, accountID, period, jobID string, words int64, limit *int64) error
	// Release gives a job's reserved words back; a no-op if none.
	Release(ctx context.Context, jobID string) error
	Used(ctx context.Context, accountID, period string) (int64, error)
}

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

// WebhookStore keeps webhook registrations, the deliveries queued for
// them and the history of every delivery attempt.
type WebhookStore interface {
	CreateWebhook(ctx context.Context, w *Webhook) error
	ListWebhooks(ctx context.Context, accountID string) ([]*Webhook, error)
	// GetWebhook reads one webhook of any account; ErrNotFound if none.
	GetWebhook(ctx context.Context, id string) (*Webhook, error)
	// UpdateWebhook reads, changes and writes a webhook atomically (URL,
	// events, active flag; the secret and owner are kept).
	UpdateWebhook(ctx context.Context, id string, fn func(*Webhook) error) (*Webhook, error)
	// DeleteWebhook removes a webhook with its deliveries and history.
	DeleteWebhook(ctx context.Context, id string) error
	// EnqueueDelivery queues d, due now, unless the webhook already has a
	// delivery of d.EventID: it reports whether d was added.
	EnqueueDelivery(ctx context.Context, d *WebhookDelivery) (added bool, err error)
	// ListAttempts is a webhook's delivery history, newest first.
	ListAttempts(ctx context.Context, webhookID string, limit int) ([]DeliveryAttempt, error)
}

// WebhookDelivery is one event queued for one webhook. Payload is the
// exact body every attempt sends.
type WebhookDelivery struct {
	ID        string
	WebhookID string
	AccountID string
	EventID   string
	Event     string
	Payload   []byte
	CreatedAt time.Time
}

// DeliveryClaim is one attempt a worker owns: the delivery, the webhook's
// current URL and secret, and the attempt's number (from 1).
type DeliveryClaim struct {
	Delivery WebhookDelivery
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

// DeliveryAttempt is one line of a webhook's delivery history.
type DeliveryAttempt struct {
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

// DeliveryQueue hands due webhook deliveries to workers, which may run in
// several processes on one database.
type DeliveryQueue interface {
	// ClaimDeliveries takes up to max deliveries due at now in one short
	// write transaction and numbers each one's next attempt, so no attempt
	// is ever sent twice. A claim not finished within lease counts as an
	// interrupted attempt and the delivery is due again; one that has had
	// maxAttempts attempts is abandoned instead.
	ClaimDeliveries(ctx context.Context, now time.Time, lease time.Duration, max, maxAttempts int) ([]*DeliveryClaim, error)
	// FinishAttempt records the attempt's result. next nil ends the
	// delivery (delivered if r.OK, else abandoned); otherwise it is due
	// again at *next.
	FinishAttempt(ctx context.Context, c *DeliveryClaim, r AttemptResult, next *time.Time) error
}

// Blob is a stored document opened for reading.
type Blob interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	Size() int64
}

// BlobStore keeps documents by key.
type BlobStore interface {
	Put(ctx context.Context, key string, r io.Reader) (int64, error)
	Open(ctx context.Context, key string) (Blob, error)
	Delete(ctx context.Context, key string) error
	// DeletePrefix removes every blob whose key starts with prefix.
	DeletePrefix(ctx context.Context, prefix string) error
}

// Topic names the job events that carry a job between stages. Names have
// no dots so that every transport accepts them.
type Topic string

const (
	TopicAccepted   Topic = "job_accepted"
	TopicConverted  Topic = "job_converted"
	TopicExtracted  Topic = "job_extracted"
	TopicTranslated Topic = "job_translated"
	TopicAssembled  Topic = "job_assembled"
	TopicLaidOut    Topic = "job_laid_out"
	TopicCompleted  Topic = "job_completed"
	TopicFailed     Topic = "job_failed"
)

// Topics lists every topic in pipeline order.
var Topics = []Topic{TopicAccepted, TopicConverted, TopicExtracted, TopicTranslated, TopicAssembled, TopicLaidOut, TopicCompleted, TopicFailed}

// JobEvent is the payload of every topic.
type JobEvent struct {
	EventID   string     `json:"event_id"`
	JobID     string     `json:"job_id"`
	AccountID string     `json:"account_id"`
	Stage     job.Stage  `json:"stage"`
	Status    job.Status `json:"status"`
	At        time.Time  `json:"at"`
	Error     string     `json:"error,omitempty"`
}

// StageEventID is the id of a job's event on a topic: the same for every
// publication, so the transport drops the duplicates that recovery and
// redelivery make.
func StageEventID(jobID string, t Topic) string {
	return uuid.NewSHA1(eventNamespace, []byte(jobID+"/"+string(t))).String()
}

var eventNamespace = uuid.MustParse("5b0e3c1e-7d4a-4f0e-9d61-3a4c1f2b8e70")

// EventHandler handles one event; an error makes the transport redeliver.
type EventHandler func(ctx context.Context, e JobEvent) error

// EventBus carries job events. Handlers are registered before the bus
// starts; delivery is at least once, so handlers must be idempotent.
type EventBus interface {
	Publish(ctx context.Context, topic Topic, e JobEvent) error
	Handle(name string, topic Topic, h EventHandler)
}

// RateLimiter enforces a per-key request rate.
type RateLimiter interface {
	// Allow counts one request against limit per minute and says whether it
	// may pass; when not, retryAfter is how long until one would.
	Allow(ctx context.Context, key string, limit int) (ok bool, retryAfter time.Duration, err error)
}

// Converter turns .doc, .odt and .rtf into .docx.
type Converter interface {
	Formats() []string
	Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error
}

// Pair is a language direction an engine serves, as ISO 639-1 codes.
type Pair struct{ Source, Target string }

// Capabilities describe an engine after its handshake.
type Capabilities struct {
	Name string
	// Pairs the engine serves; AnyToAny engines serve every registry pair.
	Pairs    []Pair
	AnyToAny bool
	// Batch limits; zero means the host default.
	MaxSegments int
	MaxChars    int
	// Modes the engine honours; others are translated as "full" with a warning.
	Modes []job.Mode
}

// TranslateRequest is one batch of segments for one engine.
type TranslateRequest struct {
	Source   string // ISO code
	Target   string // ISO code
	Mode     job.Mode
	Segments []string // tagged text (see package segment)
}

// TranslateResult answers a TranslateRequest, segment for segment.
type TranslateResult struct {
	Segments []string
	Warnings []string
}

// Provider is a translation engine.
type Provider interface {
	Capabilities(ctx context.Context) (Capabilities, error)
	Translate(ctx context.Context, req TranslateRequest) (TranslateResult, error)
}

// DocumentEngine reads translatable text out of a document and writes the
// translation back into a copy of it.
type DocumentEngine interface {
	Extract(ctx context.Context, src Blob) (*segment.Document, error)
	// Assemble writes src with every segment replaced by its Target.
	// Warnings report repairs (codes an engine dropped, …).
	Assemble(ctx context.Context, src Blob, doc *segment.Document, out io.Writer) (warnings []string, err error)
}

// LayoutRequest says which directions a layout pass converts between.
type LayoutRequest struct {
	SourceLang string // ISO code
	TargetLang string // ISO code
}

// RTLLayout fixes the direction of an assembled document.
type RTLLayout interface {
	// Estimate pre-scans a source document for what RTL output would lose.
	Estimate(ctx context.Context, src Blob, req LayoutRequest) (*job.Fidelity, error)
	Apply(ctx context.Context, src Blob, req LayoutRequest, out io.Writer) (*job.Fidelity, error)
}

// The events a Notifier is told about (webhook event kinds).
const (
	EventJobCompleted = "job.completed"
	EventJobFailed    = "job.failed"
)

// Notifier tells the outside world that a job finished (webhooks).
type Notifier interface {
	Notify(ctx context.Context, j *job.Job, event string) error
}

// URLFetcher downloads a document from a user-given URL, refusing
// addresses that would reach inside the service's network.
type URLFetcher interface {
	// Fetch writes at most max bytes of the document at url to dst and
	// returns the file name the URL suggests.
	Fetch(ctx context.Context, url string, dst io.Writer, max int64) (name string, err error)
}

// LanguageDetector guesses the language of a text.
type LanguageDetector interface {
	// Detect returns an ISO code and a confidence in [0,1]; "" if unknown.
	Detect(text string) (code string, confidence float64)
}

// Engine is one enabled translation engine.
type Engine struct {
	Name     string
	Provider Provider
	Caps     Capabilities
}

// EngineRegistry lists the enabled engines in priority order
// (DRAGOMAN_ENGINES). Engines that are down are restarted by the registry.
type EngineRegistry interface {
	Engines(ctx context.Context) ([]Engine, error)
}

// TranslationMemory keeps engine output by engine, mode, direction and the
// SHA-256 of the tagged text the engine was sent, so the same segment is
// never paid for twice. The SQL store implements it.
type TranslationMemory interface {
	// GetTM returns the stored targets of the hashes it knows (hash to target).
	GetTM(ctx context.Context, engine, mode, src, tgt string, hashes []string) (map[string]string, error)
	// PutTM stores targets by hash, replacing older ones.
	PutTM(ctx context.Context, engine, mode, src, tgt string, entries map[string]string) error
}

package telemetry

import (
	"context"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

// Webhooks follows webhook deliveries from the notify stage that queues
// them to the worker's attempts: Notifier remembers the span each job
// event was queued in, and Queue counts every attempt by outcome and
// records it as a span of the job's trace. The span is known in the
// process that queued the delivery; an attempt made by another process
// starts a trace of its own (with the event id as an attribute).
type Webhooks struct {
	m  *Metrics
	tr trace.Tracer

	mu      sync.Mutex
	parents map[string]parent // by event id
}

type parent struct {
	sc trace.SpanContext
	at time.Time
}

// keepParents is how long a queued event's span is remembered: longer
// than every attempt of its deliveries takes.
const keepParents = time.Hour

// NewWebhooks links webhook deliveries to their jobs' traces.
func (m *Metrics) NewWebhooks(tr trace.Tracer) *Webhooks {
	for _, o := range []string{"succeeded", "retrying", "abandoned"} {
		m.webhooks.WithLabelValues(o).Add(0)
		m.whLatency.WithLabelValues(o)
	}
	return &Webhooks{m: m, tr: tr, parents: map[string]parent{}}
}

// Notifier decorates the pipeline's notifier.
func (w *Webhooks) Notifier(inner webhook.Notifier) webhook.Notifier { return &notifier{inner, w} }

type notifier struct {
	inner webhook.Notifier
	w     *Webhooks
}

func (n *notifier) Notify(ctx context.Context, j *job.Job, event string) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		now := time.Now()
		n.w.mu.Lock()
		if len(n.w.parents) > 1000 {
			for k, p := range n.w.parents {
				if now.Sub(p.at) > keepParents {
					delete(n.w.parents, k)
				}
			}
		}
		n.w.parents[webhook.JobEventID(j, event)] = parent{sc, now}
		n.w.mu.Unlock()
	}
	return n.inner.Notify(ctx, j, event)
}

// Queue decorates the queue the webhook worker takes attempts from.
func (w *Webhooks) Queue(inner webhook.Queue) webhook.Queue { return &whQueue{inner, w} }

type whQueue struct {
	webhook.Queue
	w *Webhooks
}

// PruneDeliveries passes the worker's history pruning through.
func (q *whQueue) PruneDeliveries(ctx context.Context, before time.Time) (int64, error) {
	if p, ok := q.Queue.(interface {
		PruneDeliveries(context.Context, time.Time) (int64, error)
	}); ok {
		return p.PruneDeliveries(ctx, before)
	}
	return 0, nil
}

func (q *whQueue) FinishAttempt(ctx context.Context, c *webhook.Claim, r webhook.AttemptResult, next *time.Time) error {
	outcome := "succeeded"
	switch {
	case r.OK:
	case next != nil:
		outcome = "retrying"
	default:
		outcome = "abandoned"
	}
	q.w.m.webhooks.WithLabelValues(outcome).Inc()
	q.w.m.whLatency.WithLabelValues(outcome).Observe(r.Latency.Seconds())

	q.w.mu.Lock()
	p, ok := q.w.parents[c.Delivery.EventID]
	q.w.mu.Unlock()
	end := time.Now()
	sctx := context.Background()
	if ok {
		sctx = trace.ContextWithRemoteSpanContext(sctx, p.sc)
	}
	_, span := q.w.tr.Start(sctx, "webhook delivery", trace.WithSpanKind(trace.SpanKindClient),
		trace.WithTimestamp(end.Add(-r.Latency)),
		trace.WithAttributes(
			attribute.String("dragoman.event", c.Delivery.Event), attribute.String("dragoman.event_id", c.Delivery.EventID),
			attribute.String("dragoman.webhook_id", c.Delivery.WebhookID), attribute.Int("dragoman.attempt", c.Attempt),
			attribute.Int("http.response.status_code", r.StatusCode), attribute.String("dragoman.outcome", outcome)))
	if !r.OK {
		span.SetStatus(codes.Error, r.Error)
	}
	span.End(trace.WithTimestamp(end))
	return q.Queue.FinishAttempt(ctx, c, r, next)
}

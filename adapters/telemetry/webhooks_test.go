package telemetry

import (
	"context"
	"strings"
	"testing"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/webhook"
)

type nopNotifier struct{}

func (nopNotifier) Notify(context.Context, *job.Job, string) error { return nil }

type nopQueue struct{ webhook.Queue }

func (nopQueue) FinishAttempt(context.Context, *webhook.Claim, webhook.AttemptResult, *time.Time) error {
	return nil
}

// TestWebhookAttemptsJoinTheJobsTrace: an attempt is counted by outcome
// and recorded as a span under the notify stage that queued it.
func TestWebhookAttemptsJoinTheJobsTrace(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	tr := tp.Tracer("test")
	m := NewMetrics()
	wh := m.NewWebhooks(tr)

	ctx, stage := tr.Start(context.Background(), "stage notify_completed")
	j := &job.Job{ID: "job-1"}
	if err := wh.Notifier(nopNotifier{}).Notify(ctx, j, webhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	stage.End()

	q := wh.Queue(nopQueue{})
	c := &webhook.Claim{Delivery: webhook.Delivery{ID: "d1", EventID: webhook.EventID("job-1", webhook.EventJobCompleted), Event: webhook.EventJobCompleted}, Attempt: 1}
	next := time.Now().Add(time.Second)
	_ = q.FinishAttempt(context.Background(), c, webhook.AttemptResult{StatusCode: 500, Latency: 30 * time.Millisecond, Error: "500"}, &next)
	c.Attempt = 2
	_ = q.FinishAttempt(context.Background(), c, webhook.AttemptResult{OK: true, StatusCode: 204, Latency: 20 * time.Millisecond}, nil)
	other := &webhook.Claim{Delivery: webhook.Delivery{ID: "d2", EventID: "unknown"}, Attempt: 3}
	_ = q.FinishAttempt(context.Background(), other, webhook.AttemptResult{Error: "refused"}, nil)

	var deliveries []sdktrace.ReadOnlySpan
	for _, s := range rec.Ended() {
		if s.Name() == "webhook delivery" {
			deliveries = append(deliveries, s)
		}
	}
	if len(deliveries) != 3 {
		t.Fatalf("%d delivery spans, want 3", len(deliveries))
	}
	for i, s := range deliveries[:2] {
		if s.Parent().SpanID() != stage.SpanContext().SpanID() || s.SpanContext().TraceID() != stage.SpanContext().TraceID() {
			t.Errorf("attempt %d is not under the notify stage", i+1)
		}
		if d := s.EndTime().Sub(s.StartTime()); d < 15*time.Millisecond || d > 40*time.Millisecond {
			t.Errorf("attempt %d span lasts %s, not its latency", i+1, d)
		}
	}
	if deliveries[2].Parent().IsValid() {
		t.Error("an attempt of an unknown event got a parent")
	}

	out := scrape(t, m)
	for _, want := range []string{
		`dragoman_webhook_attempts_total{outcome="retrying"} 1`,
		`dragoman_webhook_attempts_total{outcome="succeeded"} 1`,
		`dragoman_webhook_attempts_total{outcome="abandoned"} 1`,
		`dragoman_webhook_delivery_duration_seconds_count{outcome="succeeded"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

type unfinished struct {
	ports.JobStore
	jobs []*job.Job
}

func (u unfinished) Unfinished(context.Context) ([]*job.Job, error) { return u.jobs, nil }

type fixedClock struct{ t time.Time }

func (c fixedClock) Now() time.Time { return c.t }

func TestQueueDepthAndOldestAgePerStage(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	m := NewMetrics()
	m.WatchQueues(unfinished{jobs: []*job.Job{
		{Stage: job.StageAccepted, UpdatedAt: now.Add(-90 * time.Second)},
		{Stage: job.StageAccepted, UpdatedAt: now.Add(-10 * time.Second)},
		{Stage: job.StageExtracted, UpdatedAt: now.Add(-5 * time.Second)},
		{Stage: job.StageConverted, UpdatedAt: now.Add(-30 * time.Second)}, // in the same pass
	}}, fixedClock{now})
	out := scrape(t, m)
	for _, want := range []string{
		`dragoman_queue_depth{stage="convert"} 2`,
		`dragoman_queue_oldest_age_seconds{stage="convert"} 90`,
		`dragoman_queue_depth{stage="translate"} 2`,
		`dragoman_queue_oldest_age_seconds{stage="translate"} 30`,
		`dragoman_queue_depth{stage="finish"} 0`,
		`dragoman_queue_oldest_age_seconds{stage="finish"} 0`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

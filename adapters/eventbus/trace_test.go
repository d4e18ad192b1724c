package eventbus

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// TestTraceContextTravelsWithTheEvent: a handler runs in the trace the
// event was published in, so one job is one trace across its stages.
func TestTraceContextTravelsWithTheEvent(t *testing.T) {
	prev := otel.GetTextMapPropagator()
	otel.SetTextMapPropagator(propagation.TraceContext{})
	t.Cleanup(func() { otel.SetTextMapPropagator(prev) })

	b := newTestBus(t, t.TempDir())
	type seen struct {
		job string
		sc  trace.SpanContext
	}
	got := make(chan seen, 2)
	b.Handle("convert", ports.TopicAccepted, func(ctx context.Context, e ports.JobEvent) error {
		got <- seen{e.JobID, trace.SpanContextFromContext(ctx)}
		return nil
	})
	start(t, b)
	sent := trace.NewSpanContext(trace.SpanContextConfig{
		TraceID: trace.TraceID{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16},
		SpanID:  trace.SpanID{1, 2, 3, 4, 5, 6, 7, 8}, TraceFlags: trace.FlagsSampled,
	})
	ctx := trace.ContextWithSpanContext(context.Background(), sent)
	if err := b.Publish(ctx, ports.TopicAccepted, ports.JobEvent{JobID: "job-t", At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	publish(t, b, ports.TopicAccepted, "job-untraced") // no trace: none made up
	for i := 0; i < 2; i++ {
		select {
		case g := <-got:
			switch {
			case g.job == "job-untraced" && g.sc.IsValid():
				t.Errorf("an untraced event arrived with span context %v", g.sc)
			case g.job == "job-t" && (g.sc.TraceID() != sent.TraceID() || g.sc.SpanID() != sent.SpanID() || !g.sc.IsRemote()):
				t.Errorf("handler's span context %v, want the publisher's %v", g.sc, sent)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("event not delivered")
		}
	}
}

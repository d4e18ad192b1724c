package eventbus

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/dragoman-translate/dragoman/core/ports"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// injectTrace writes the trace context of ctx (W3C traceparent, with the
// globally configured propagator) into the message metadata, which
// travels as NATS headers; with tracing off it writes nothing.
func injectTrace(ctx context.Context, msg *message.Message) {
	if trace.SpanContextFromContext(ctx).IsValid() {
		otel.GetTextMapPropagator().Inject(ctx, propagation.MapCarrier(msg.Metadata))
	}
}

// extractTrace is the message's context with the publisher's trace
// context in it, so the handler's spans join the job's trace.
func extractTrace(msg *message.Message) context.Context {
	return otel.GetTextMapPropagator().Extract(msg.Context(), propagation.MapCarrier(msg.Metadata))
}

// jobIDOf is the job an event is about, for log lines; "" if unreadable.
func jobIDOf(msg *message.Message) string {
	var e struct {
		JobID string `json:"job_id"`
	}
	_ = json.Unmarshal(msg.Payload, &e)
	return e.JobID
}

// Ping checks that the bus can reach its JetStream server, for the
// readiness probe.
func (b *Bus) Ping(ctx context.Context) error {
	if !b.nc.IsConnected() {
		return &ports.Unavailable{What: "the event bus", Reason: "is not answering",
			Err: errors.New("not connected to NATS (" + b.nc.Status().String() + ")")}
	}
	if _, err := b.streams.js.AccountInfo(ctx); err != nil {
		return &ports.Unavailable{What: "the event bus", Reason: "is not answering", Err: err}
	}
	return nil
}

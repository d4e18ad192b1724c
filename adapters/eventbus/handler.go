package eventbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/ThreeDotsLabs/watermill/message/router/middleware"

	"github.com/dragoman-translate/dragoman/core/ports"
)

type attemptKey struct{}

// Attempt tells a handler which delivery of its event this is (1 on the
// first). Handlers may use it to report progress; giving up is done by
// the bus (WithGiveUpAfter, WithOnGiveUp).
func Attempt(ctx context.Context) int {
	n, _ := ctx.Value(attemptKey{}).(int)
	return n
}

// errUndecodable marks a payload that no retry can fix.
var errUndecodable = errors.New("eventbus: payload is not a JobEvent")

// chain builds the watermill handler for one registration. Outermost
// first: give-up policy, decoding (an undecodable payload is not
// retried), in-place retries, panic recovery, the port handler.
func (b *Bus) chain(name string, topic ports.Topic, h ports.EventHandler) message.NoPublishHandlerFunc {
	var retry message.HandlerMiddleware = func(next message.HandlerFunc) message.HandlerFunc { return next }
	if b.cfg.retries > 0 {
		retry = middleware.Retry{
			MaxRetries:      b.cfg.retries,
			InitialInterval: 500 * time.Millisecond,
			MaxInterval:     5 * time.Second,
			Multiplier:      2,
			// No ShouldRetry: watermill v1.5.1 advances the backoff when
			// it calls it, doubling every wait.
		}.Middleware
	}
	decoded := func(msg *message.Message) ([]*message.Message, error) {
		var e ports.JobEvent
		if err := json.Unmarshal(msg.Payload, &e); err != nil {
			return nil, fmt.Errorf("%w: %v", errUndecodable, err)
		}
		call := func(m *message.Message) ([]*message.Message, error) {
			return nil, h(context.WithValue(extractTrace(m), attemptKey{}, attemptOf(m)), e)
		}
		return retry(middleware.Recoverer(call))(msg)
	}
	fn := b.giveUp(name, topic, decoded)
	return func(msg *message.Message) error {
		_, err := fn(msg)
		return err
	}
}

// giveUp acks an event whose handler failed for the last time, after
// logging it and telling WithOnGiveUp, if that recorded it. Other
// failures are returned, so the subscriber NAKs the event for a later
// redelivery.
func (b *Bus) giveUp(name string, topic ports.Topic, next message.HandlerFunc) message.HandlerFunc {
	return func(msg *message.Message) ([]*message.Message, error) {
		_, err := next(msg)
		if err == nil {
			return nil, nil
		}
		attempt := attemptOf(msg)
		log := b.log.With("handler", name, "topic", string(topic), "event_id", msg.UUID, "job_id", jobIDOf(msg), "attempt", attempt, "err", err)
		if errors.Is(msg.Context().Err(), context.Canceled) && !errors.Is(err, errUndecodable) {
			// Shutdown: not the event's fault, so never give up on it here.
			log.Warn("eventbus: handler interrupted; event will be redelivered")
			return nil, err
		}
		if age := time.Since(storedAt(msg)); age < b.cfg.giveUpAfter && !errors.Is(err, errUndecodable) {
			log.Warn("eventbus: handler failed; event will be redelivered", "age", age.Round(time.Millisecond))
			return nil, err
		}
		log.Error("eventbus: giving up on event")
		if b.cfg.onGiveUp != nil {
			var e ports.JobEvent
			_ = json.Unmarshal(msg.Payload, &e)
			ctx, cancel := context.WithTimeout(context.WithoutCancel(msg.Context()), 30*time.Second)
			gerr := b.cfg.onGiveUp(ctx, name, topic, e, err)
			cancel()
			if gerr != nil && !errors.Is(err, errUndecodable) {
				log.Warn("eventbus: giving up could not be recorded; event will be redelivered", "give_up_err", gerr)
				return nil, err
			}
		}
		return nil, nil
	}
}

// storedAt is when the event was stored on its stream (its first
// publication); now if unknown, so that an event is never given up for an
// age it may not have.
func storedAt(msg *message.Message) time.Time {
	t, err := time.Parse(time.RFC3339Nano, msg.Metadata.Get(MetadataStoredAt))
	if err != nil {
		return time.Now()
	}
	return t
}

func attemptOf(msg *message.Message) int {
	n, err := strconv.Atoi(msg.Metadata.Get(MetadataAttempt))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

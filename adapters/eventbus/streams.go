package eventbus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// streams creates one JetStream stream per topic on first use. The
// stream is named after the topic and holds only that subject, which is
// why topic names must not contain dots.
type streams struct {
	js     jetstream.JetStream
	maxAge time.Duration
	known  sync.Map // topic -> struct{}
}

func (s *streams) ensure(ctx context.Context, topic string) error {
	if _, ok := s.known.Load(topic); ok {
		return nil
	}
	_, err := s.js.Stream(ctx, topic)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		_, err = s.js.CreateStream(ctx, jetstream.StreamConfig{
			Name:     topic,
			Subjects: []string{topic},
			Storage:  jetstream.FileStorage,
			// Limits retention keeps a message until it ages out, so an
			// event published before its consumer group first subscribes
			// is still delivered (interest retention would drop it).
			Retention: jetstream.LimitsPolicy,
			MaxAge:    s.maxAge,
			// Publishing the same EventID twice within this window stores it once.
			Duplicates: 2 * time.Minute,
		})
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			err = nil // another process created it meanwhile
		}
	}
	if err != nil {
		return fmt.Errorf("eventbus: stream %q: %w", topic, err)
	}
	s.known.Store(topic, struct{}{})
	return nil
}

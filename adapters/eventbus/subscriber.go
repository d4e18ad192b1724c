package eventbus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill"
	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/nats-io/nats.go/jetstream"
)

// Watermill metadata keys the subscriber sets on each delivery: how many
// times JetStream has delivered the message (1 on first delivery), and
// when it was stored on the stream (RFC 3339), which bounds its retries.
const (
	MetadataAttempt  = "dragoman_delivery_attempt"
	MetadataStoredAt = "dragoman_stored_at"
)

// subscriberConfig tunes a Subscriber.
type subscriberConfig struct {
	// group names the durable JetStream consumer. Every subscriber with
	// the same group on the same topic, in any process, shares its
	// messages; "" gives each Subscribe call its own ephemeral consumer.
	group string
	// slots is how many messages one Subscribe call holds at once.
	slots int
	// ackWait is JetStream's redelivery timer. While a handler runs the
	// subscriber sends in-progress acks every ackWait/3, so only a dead
	// process lets it expire.
	ackWait time.Duration
	// handlerTimeout caps one handling: the message context is cancelled
	// and in-progress acks stop, so a hung handler cannot pin a message.
	handlerTimeout time.Duration
	// backoff gives the redelivery delay after the attempt-th delivery failed.
	backoff func(attempt int) time.Duration
	// pollWait is how long one pull request waits for a message.
	pollWait time.Duration
	// closeGrace is how long a closing subscriber waits for handlers still
	// running to ack before it hands their messages back.
	closeGrace time.Duration
}

// Subscriber is a watermill Subscriber on a JetStream pull consumer.
//
// It pulls one message per free slot, so a message never waits in a
// client buffer while its AckWait runs (push consumers prefetch up to
// MaxAckPending messages, which long handlers would then see redelivered
// elsewhere). Ack is confirmed by the server; Nack is a delayed NAK.
type Subscriber struct {
	streams *streams
	cfg     subscriberConfig
	log     *slog.Logger
	onClose func()

	closing   chan struct{}
	closeOnce sync.Once
	running   sync.WaitGroup
}

var (
	_ message.Subscriber           = (*Subscriber)(nil)
	_ message.SubscribeInitializer = (*Subscriber)(nil)
)

func newSubscriber(st *streams, cfg subscriberConfig, log *slog.Logger, onClose func()) *Subscriber {
	if cfg.slots <= 0 {
		cfg.slots = 1
	}
	if cfg.ackWait <= 0 {
		cfg.ackWait = 30 * time.Second
	}
	if cfg.handlerTimeout <= 0 {
		cfg.handlerTimeout = time.Hour
	}
	if cfg.backoff == nil {
		cfg.backoff = defaultBackoff
	}
	if cfg.pollWait <= 0 {
		cfg.pollWait = 10 * time.Second
	}
	return &Subscriber{streams: st, cfg: cfg, log: log, onClose: onClose, closing: make(chan struct{})}
}

// SubscribeInitialize creates the topic's stream.
func (s *Subscriber) SubscribeInitialize(topic string) error {
	return s.streams.ensure(context.Background(), topic)
}

// Subscribe starts cfg.slots pullers on topic. The channel closes after
// ctx is cancelled or the subscriber closed, once every slot has settled
// its message.
func (s *Subscriber) Subscribe(ctx context.Context, topic string) (<-chan *message.Message, error) {
	select {
	case <-s.closing:
		return nil, errors.New("eventbus: subscriber closed")
	default:
	}
	if err := s.streams.ensure(ctx, topic); err != nil {
		return nil, err
	}
	cons, name, err := s.consumer(ctx, topic)
	if err != nil {
		return nil, err
	}

	ctx, cancel := context.WithCancel(ctx)
	go func() {
		select {
		case <-s.closing:
		case <-ctx.Done():
		}
		cancel()
	}()

	out := make(chan *message.Message)
	var slots sync.WaitGroup
	s.running.Add(1)
	for range s.cfg.slots {
		slots.Add(1)
		go func() {
			defer slots.Done()
			s.pull(ctx, topic, cons, out)
		}()
	}
	go func() {
		defer s.running.Done()
		slots.Wait()
		if s.cfg.group == "" {
			dctx, dcancel := context.WithTimeout(context.Background(), 5*time.Second)
			_ = s.streams.js.DeleteConsumer(dctx, topic, name)
			dcancel()
		}
		close(out)
	}()
	return out, nil
}

// consumer creates or updates the topic's consumer for this group.
func (s *Subscriber) consumer(ctx context.Context, topic string) (jetstream.Consumer, string, error) {
	cc := jetstream.ConsumerConfig{
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       s.cfg.ackWait,
		DeliverPolicy: jetstream.DeliverAllPolicy,
		// Redelivery is unlimited here. JetStream's MaxDeliver would drop
		// the message with only an advisory, a count an outage uses up;
		// the bus gives up by the event's age (WithGiveUpAfter) and only
		// once the failure is recorded, so no job is left unfinished.
		MaxDeliver: -1,
	}
	if s.cfg.group != "" {
		cc.Durable = ConsumerName(s.cfg.group)
		cc.Name = cc.Durable
	} else {
		cc.Name = "ephemeral_" + watermill.NewShortUUID()
		cc.InactiveThreshold = time.Minute
	}
	cons, err := s.streams.js.CreateOrUpdateConsumer(ctx, topic, cc)
	if err != nil {
		return nil, "", fmt.Errorf("eventbus: consumer %q on %q: %w", cc.Name, topic, err)
	}
	return cons, cc.Name, nil
}

// ConsumerName turns a handler name into a valid JetStream consumer name.
func ConsumerName(group string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '.' || r == '*' || r == '>' || r == '/' || r == '\\' || r <= ' ' || r == 0x7f:
			return '_'
		}
		return r
	}, group)
}

// pull fetches one message at a time and hands it over until ctx ends.
func (s *Subscriber) pull(ctx context.Context, topic string, cons jetstream.Consumer, out chan<- *message.Message) {
	pause := 50 * time.Millisecond
	for ctx.Err() == nil {
		fctx, fcancel := context.WithTimeout(ctx, s.cfg.pollWait)
		batch, err := cons.Fetch(1, jetstream.FetchContext(fctx))
		if err == nil {
			for jm := range batch.Messages() {
				s.deliver(ctx, jm, out)
			}
			err = batch.Error()
		}
		fcancel()
		if err == nil || ctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
			pause = 50 * time.Millisecond
			continue
		}
		// Server restarting, consumer deleted, connection lost: retry, and
		// recreate the consumer if it is gone.
		s.log.Debug("eventbus: fetch failed", "topic", topic, "group", s.cfg.group, "err", err)
		if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) {
			if c, _, cerr := s.consumer(ctx, topic); cerr == nil {
				cons = c
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
		pause = min(2*pause, 2*time.Second)
	}
}

// deliver hands one message to the handler and settles it with JetStream.
func (s *Subscriber) deliver(ctx context.Context, jm jetstream.Msg, out chan<- *message.Message) {
	msg := toWatermill(jm)
	attempt := 1
	if md, err := jm.Metadata(); err == nil {
		attempt = int(md.NumDelivered)
		msg.Metadata.Set(MetadataStoredAt, md.Timestamp.UTC().Format(time.RFC3339Nano))
	}
	msg.Metadata.Set(MetadataAttempt, strconv.Itoa(attempt))

	mctx, cancel := context.WithTimeout(ctx, s.cfg.handlerTimeout)
	defer cancel()
	msg.SetContext(mctx)

	select {
	case out <- msg:
	case <-ctx.Done():
		s.nak(jm, 0) // never handed over: give it back at once
		return
	}

	heartbeat := time.NewTicker(s.cfg.ackWait / 3)
	defer heartbeat.Stop()
	var grace <-chan time.Time
	closing := ctx.Done()
	for {
		select {
		case <-msg.Acked():
			actx, acancel := context.WithTimeout(context.Background(), 10*time.Second)
			err := jm.DoubleAck(actx)
			acancel()
			if err != nil {
				s.log.Warn("eventbus: ack failed; the message will be redelivered", "uuid", msg.UUID, "err", err)
			}
			return
		case <-msg.Nacked():
			delay := s.cfg.backoff(attempt)
			if ctx.Err() != nil {
				delay = 0 // shutting down: let another process have it now
			}
			if err := s.nak(jm, delay); err != nil {
				s.log.Warn("eventbus: nak failed; the message will be redelivered after AckWait", "uuid", msg.UUID, "err", err)
			}
			return
		case <-heartbeat.C:
			if mctx.Err() == nil {
				_ = jm.InProgress()
			}
		case <-closing:
			closing = nil
			grace = time.After(s.cfg.closeGrace)
		case <-grace:
			s.nak(jm, 0)
			return
		}
	}
}

// nak hands a message back for redelivery after delay and waits for the
// server to confirm. A delayed NAK is stored as an expired delivery time,
// so even a restarted server redelivers it promptly (a plain NAK only
// queues it in memory, and after a restart it would wait out AckWait).
func (s *Subscriber) nak(jm jetstream.Msg, delay time.Duration) error {
	body := []byte(fmt.Sprintf(`-NAK {"delay": %d}`, delay.Nanoseconds()))
	if _, err := s.streams.js.Conn().Request(jm.Reply(), body, 10*time.Second); err != nil {
		return jm.NakWithDelay(delay) // unconfirmed, but better than nothing
	}
	return nil
}

// Close stops every Subscribe and waits for their slots to settle.
func (s *Subscriber) Close() error {
	var err error
	s.closeOnce.Do(func() {
		close(s.closing)
		done := make(chan struct{})
		go func() { s.running.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(s.cfg.closeGrace + s.cfg.pollWait + 10*time.Second):
			err = errors.New("eventbus: subscriber close timed out")
		}
		if s.onClose != nil {
			s.onClose()
		}
	})
	return err
}

// defaultBackoff waits 1s, 2s, 4s, … up to a minute between deliveries.
func defaultBackoff(attempt int) time.Duration {
	if attempt < 1 {
		attempt = 1
	}
	return min(time.Second<<min(attempt-1, 6), time.Minute)
}

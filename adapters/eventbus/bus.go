package eventbus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"
	"github.com/google/uuid"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// Bus is the ports.EventBus on NATS JetStream through watermill.
type Bus struct {
	cfg     config
	log     *slog.Logger
	libLog  *slog.Logger
	srv     *server.Server // nil when connected to an external server
	nc      *nats.Conn
	streams *streams
	pub     *Publisher
	router  *message.Router

	mu       sync.Mutex
	started  bool
	subs     []*Subscriber
	runDone  chan error
	stopOnce sync.Once
	stopErr  error
}

var _ ports.EventBus = (*Bus)(nil)

// NewEmbedded starts a NATS JetStream server inside the process, storing
// its streams in dataDir/events, and returns a bus connected to it.
// Only one process may use a dataDir at a time.
func NewEmbedded(dataDir string, logger *slog.Logger, opts ...Option) (*Bus, error) {
	cfg, logger := configure(logger, opts)
	srv, err := startEmbedded(dataDir, cfg.listen, cfg.fsync, libraryLogger(logger, cfg.libLevel, "nats-server"))
	if err != nil {
		return nil, err
	}
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.Name("dragoman"))
	if err != nil {
		srv.Shutdown()
		return nil, fmt.Errorf("eventbus: connect in-process: %w", err)
	}
	b, err := newBus(cfg, logger, nc)
	if err != nil {
		srv.Shutdown()
		return nil, err
	}
	b.srv = srv
	return b, nil
}

// NewNATS connects to an external NATS server with JetStream enabled
// (the scale-out deployment: every API and worker process points at the
// same url, and each Handle name is one consumer group across them).
func NewNATS(url string, logger *slog.Logger, opts ...Option) (*Bus, error) {
	cfg, logger := configure(logger, opts)
	nc, err := nats.Connect(url, nats.Name("dragoman"), nats.MaxReconnects(-1))
	if err != nil {
		return nil, fmt.Errorf("eventbus: connect %s: %w", url, err)
	}
	return newBus(cfg, logger, nc)
}

func configure(logger *slog.Logger, opts []Option) (config, *slog.Logger) {
	cfg := defaults()
	for _, o := range opts {
		o(&cfg)
	}
	if logger == nil {
		logger = slog.Default()
	}
	return cfg, logger
}

func newBus(cfg config, logger *slog.Logger, nc *nats.Conn) (*Bus, error) {
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("eventbus: jetstream: %w", err)
	}
	libLog := libraryLogger(logger, cfg.libLevel, "watermill")
	router, err := message.NewRouter(message.RouterConfig{CloseTimeout: cfg.closeTimeout}, watermillLogger(libLog))
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("eventbus: router: %w", err)
	}
	st := &streams{js: js, maxAge: cfg.retention}
	return &Bus{
		cfg:     cfg,
		log:     logger,
		libLog:  libLog,
		nc:      nc,
		streams: st,
		pub:     &Publisher{streams: st},
		router:  router,
	}, nil
}

// URL is the address other processes can reach the server at: the
// embedded server's loopback listener, or the external server.
func (b *Bus) URL() string {
	if b.srv != nil {
		return b.srv.ClientURL()
	}
	return b.nc.ConnectedUrl()
}

// Publish stores e on topic and returns once the server has it. An empty
// EventID is filled in; the EventID is the watermill message UUID. While
// the connection to an external server is down it fails at once with
// *ports.Unavailable rather than waiting out the publish timeout: callers
// keep what they publish (the job's state) and republish it later.
func (b *Bus) Publish(ctx context.Context, topic ports.Topic, e ports.JobEvent) error {
	if !b.nc.IsConnected() {
		return &ports.Unavailable{What: "the event bus", Reason: "is not answering", RetryAfter: 5 * time.Second,
			Err: errors.New("not connected to NATS (" + b.nc.Status().String() + ")")}
	}
	if e.EventID == "" {
		e.EventID = uuid.NewString()
	}
	payload, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("eventbus: encode event: %w", err)
	}
	msg := message.NewMessage(e.EventID, payload)
	msg.Metadata.Set(MetadataEventVersion, EventVersion)
	injectTrace(ctx, msg) // the next stage's span joins the job's trace
	return b.pub.PublishContext(ctx, string(topic), msg)
}

// The payload of job events is a versioned contract with event
// subscribers (README, "Event subscribers"): every message carries its
// version in the MetadataEventVersion header. Adding a field keeps the
// version; removing or changing one makes the next.
const (
	MetadataEventVersion = "Dragoman-Event-Version"
	EventVersion         = "1"
)

// Handle registers h for topic in the consumer group name, with the
// bus-wide concurrency. It must be called before Start.
func (b *Bus) Handle(name string, topic ports.Topic, h ports.EventHandler) {
	b.HandleConcurrent(name, topic, b.cfg.concurrency, h)
}

// HandleConcurrent is Handle with n events handled at once by this process.
func (b *Bus) HandleConcurrent(name string, topic ports.Topic, n int, h ports.EventHandler) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.started {
		panic("eventbus: Handle(" + name + ") after Start")
	}
	sub := newSubscriber(b.streams, subscriberConfig{
		group:          name,
		slots:          max(n, 1),
		ackWait:        b.cfg.ackWait,
		handlerTimeout: b.cfg.handlerTimeout,
		backoff:        b.cfg.backoff,
		closeGrace:     b.cfg.closeTimeout,
	}, b.libLog, nil)
	b.subs = append(b.subs, sub)
	b.router.AddConsumerHandler(name+"@"+string(topic), string(topic), sub, b.chain(name, topic, h))
}

// Start runs every registered handler and returns once all of them are
// subscribed. ctx bounds only the start; the bus runs until Close.
func (b *Bus) Start(ctx context.Context) error {
	b.mu.Lock()
	if b.started {
		b.mu.Unlock()
		return errors.New("eventbus: already started")
	}
	b.started = true
	b.runDone = make(chan error, 1)
	b.mu.Unlock()

	go func() { b.runDone <- b.router.Run(context.Background()) }()
	select {
	case <-b.router.Running():
		return nil
	case err := <-b.runDone:
		b.runDone <- err
		return fmt.Errorf("eventbus: start: %w", err)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Close stops the handlers (waiting up to the close timeout for running
// ones), then the connection, then the embedded server.
func (b *Bus) Close() error {
	b.stopOnce.Do(func() {
		var errs []error
		b.mu.Lock()
		started := b.started
		b.started = true // no Handle after Close either
		b.mu.Unlock()
		if started {
			errs = append(errs, b.router.Close())
			if err := <-b.runDone; err != nil {
				errs = append(errs, err)
			}
		}
		for _, s := range b.subs {
			errs = append(errs, s.Close())
		}
		// Publishes and acks are synchronous, so nothing is pending here.
		b.nc.Close()
		if b.srv != nil {
			b.srv.Shutdown()
			b.srv.WaitForShutdown()
		}
		b.stopErr = errors.Join(errs...)
	})
	return b.stopErr
}

package eventbus

import (
	"context"
	"log/slog"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// GiveUpFunc is told about an event the bus stops retrying: its handler
// still failed once the event was older than WithGiveUpAfter (or the
// payload is not a JobEvent). The event is acknowledged only if it returns
// nil, so this is the place to fail the job; an error (the failure could
// not be recorded: the database is down too) keeps the event for later.
type GiveUpFunc func(ctx context.Context, handler string, topic ports.Topic, e ports.JobEvent, err error) error

// Option tunes a Bus.
type Option func(*config)

type config struct {
	ackWait        time.Duration
	giveUpAfter    time.Duration
	retries        int
	concurrency    int
	handlerTimeout time.Duration
	backoff        func(attempt int) time.Duration
	retention      time.Duration
	fsync          bool
	libLevel       slog.Level
	onGiveUp       GiveUpFunc
	closeTimeout   time.Duration
	listen         string
}

func defaults() config {
	return config{
		ackWait:        30 * time.Second,
		giveUpAfter:    DefaultGiveUpAfter,
		retries:        1,
		concurrency:    1,
		handlerTimeout: time.Hour,
		backoff:        defaultBackoff,
		retention:      7 * 24 * time.Hour,
		libLevel:       slog.LevelWarn,
		closeTimeout:   10 * time.Second,
	}
}

// WithAckWait sets how long JetStream waits for an ack before it
// redelivers (default 30 s). Running handlers are kept alive by
// in-progress acks every AckWait/3, so this only bounds how soon the
// messages of a crashed process go to another one.
func WithAckWait(d time.Duration) Option { return func(c *config) { c.ackWait = d } }

// DefaultGiveUpAfter is the jobs' retention: past it a job and its files
// are gone and no handler has anything left to do.
const DefaultGiveUpAfter = 24 * time.Hour

// WithGiveUpAfter sets how old an event (since it was stored) must be for
// a failure of its handler to be the last: the event is then logged,
// passed to WithOnGiveUp and acknowledged. Retries are bounded by time,
// not by their number, so an outage of the database or the bucket that
// fails every delivery for minutes does not use them up (the delays grow
// to a minute and stay there). Default DefaultGiveUpAfter; 0 gives up at
// the first failure.
func WithGiveUpAfter(d time.Duration) Option { return func(c *config) { c.giveUpAfter = max(d, 0) } }

// WithRetries sets how many times a failed handler is re-run in place,
// after 0.5 s, 1 s, …, before the delivery counts as failed. Default 1.
func WithRetries(n int) Option { return func(c *config) { c.retries = max(n, 0) } }

// WithConcurrency sets how many events of one Handle registration a
// process handles at once (default 1). HandleConcurrent overrides it.
func WithConcurrency(n int) Option { return func(c *config) { c.concurrency = max(n, 1) } }

// WithBackoff sets the delay before redelivery after the attempt-th
// delivery failed (default 1 s, 2 s, 4 s, … capped at 1 min).
func WithBackoff(f func(attempt int) time.Duration) Option { return func(c *config) { c.backoff = f } }

// WithFsync makes the embedded server fsync every write (survives power
// loss, not only process crashes). Default off.
func WithFsync(on bool) Option { return func(c *config) { c.fsync = on } }

// WithOnGiveUp registers the callback for events the bus stops retrying.
func WithOnGiveUp(f GiveUpFunc) Option { return func(c *config) { c.onGiveUp = f } }

// WithCloseTimeout bounds how long Close waits for running handlers
// (default 10 s); their events are then handed back for redelivery.
func WithCloseTimeout(d time.Duration) Option { return func(c *config) { c.closeTimeout = d } }

// WithListen sets the embedded server's client address, host:port (port
// 0: any free port), so that event subscribers in other processes can
// connect. Default: a free loopback port. Ignored by NewNATS.
func WithListen(addr string) Option { return func(c *config) { c.listen = addr } }

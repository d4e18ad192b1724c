package webhook

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// Config sets up delivery; zero values take the contract's defaults.
type Config struct {
	// AllowPrivate lets deliveries reach loopback and private addresses,
	// plain http:// included (--allow-private-urls): tests and local
	// development only.
	AllowPrivate bool
	// TLS is the client's TLS configuration, e.g. with a test CA in
	// RootCAs; nil: system roots, TLS 1.2 or later.
	TLS *tls.Config
	// Timeout bounds one attempt, connection to last response byte; 15 s.
	Timeout time.Duration
	// Delays are the waits before each attempt, so len(Delays) is the
	// number of attempts: corewebhook.DefaultDelays.
	Delays []time.Duration
	// PollInterval is the longest the worker sleeps without checking the
	// queue when nothing wakes it; 1 s. A queue that knows its next due
	// time (sqlstore does) wakes the worker exactly then instead.
	PollInterval time.Duration
	// Lease is how long a claimed attempt may run before another worker
	// counts it as interrupted and moves on; Timeout + 45 s.
	Lease time.Duration
	// Concurrency is how many attempts run at once; 8.
	Concurrency int
	// PerDestination is how many of them may go to one receiver (scheme,
	// host and port) at once, so one slow or hanging receiver delays only
	// its own deliveries (issue 26); 2.
	PerDestination int
	// PerAccount is how many of them may be one account's at once, so an
	// account with many slow receivers cannot take every slot; half of
	// Concurrency, at least PerDestination.
	PerAccount int
	// KeepHistory is how long finished deliveries and their history are
	// kept; 30 days.
	KeepHistory time.Duration
	UserAgent   string // "Dragoman-Webhooks/1"
}

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = 15 * time.Second
	}
	if len(c.Delays) == 0 {
		c.Delays = corewebhook.DefaultDelays
	}
	if c.PollInterval <= 0 {
		c.PollInterval = time.Second
	}
	if c.Lease <= c.Timeout {
		c.Lease = c.Timeout + 45*time.Second
	}
	if c.Concurrency <= 0 {
		c.Concurrency = 8
	}
	if c.PerDestination <= 0 {
		c.PerDestination = 2
	}
	if c.PerAccount <= 0 {
		c.PerAccount = max(c.Concurrency/2, c.PerDestination)
	}
	if c.KeepHistory <= 0 {
		c.KeepHistory = 30 * 24 * time.Hour
	}
	if c.UserAgent == "" {
		c.UserAgent = "Dragoman-Webhooks/1"
	}
	return c
}

// dueQueue is implemented by queues that can tell when their next pending
// attempt falls due, so the worker sleeps until exactly then rather than to
// its next poll (which made retries up to a poll interval late).
type dueQueue interface {
	NextDeliveryDue(ctx context.Context) (time.Time, bool, error)
}

// pruner is implemented by queues that can drop old history.
type pruner interface {
	PruneDeliveries(ctx context.Context, before time.Time) (int64, error)
}

// Worker sends queued deliveries until stopped.
type Worker struct {
	q     corewebhook.Queue
	cfg   Config
	clock ports.Clock
	log   *slog.Logger
	send  *sender

	wake   chan struct{}
	slots  chan struct{}
	flight inFlight // attempts running, by destination and account
	stop   chan struct{}
	done   chan struct{}
	// sendCtx ends attempts still running when Stop runs out of time.
	sendCtx     context.Context
	cancelSends context.CancelFunc
	inflight    sync.WaitGroup
	startOnce   sync.Once
	stopOnce    sync.Once
}

// NewWorker builds a worker over q; Start runs it.
func NewWorker(q corewebhook.Queue, cfg Config, clock ports.Clock, log *slog.Logger) *Worker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cfg = cfg.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	return &Worker{
		q: q, cfg: cfg, clock: clock, log: log, send: newSender(cfg),
		wake: make(chan struct{}, 1), slots: make(chan struct{}, cfg.Concurrency),
		stop: make(chan struct{}), done: make(chan struct{}),
		sendCtx: ctx, cancelSends: cancel,
	}
}

// Start runs the worker in the background.
func (w *Worker) Start() {
	w.startOnce.Do(func() { go w.run() })
}

// Wake makes the worker look for due attempts now (after Notify queued
// some), instead of at its next poll.
func (w *Worker) Wake() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// Stop claims nothing more and waits for attempts in flight; when ctx ends
// first they are cancelled and recorded as failed, to be retried by the
// next worker. Deliveries still queued stay in the database.
func (w *Worker) Stop(ctx context.Context) error {
	w.stopOnce.Do(func() { close(w.stop) })
	w.startOnce.Do(func() { close(w.done) }) // never started
	<-w.done
	idle := make(chan struct{})
	go func() { w.inflight.Wait(); close(idle) }()
	select {
	case <-idle:
		w.cancelSends()
		return nil
	case <-ctx.Done():
		w.cancelSends()
		<-idle
		return ctx.Err()
	}
}

func (w *Worker) run() {
	defer close(w.done)
	timer := time.NewTimer(w.cfg.PollInterval)
	defer timer.Stop()
	lastPrune := time.Time{}
	for {
		busy, held := w.poll()
		if time.Since(lastPrune) > time.Hour {
			lastPrune = time.Now()
			w.prune()
		}
		if busy {
			// Every slot was filled: more may be due as soon as one frees.
			select {
			case <-w.stop:
				return
			case <-w.wake:
			}
			continue
		}
		next := w.sleep
		if held {
			// Due deliveries wait for their destination: the next is due
			// now, but can go only when an attempt ends (which wakes us)
			// or another process's lease runs out.
			next = func() time.Duration { return w.cfg.PollInterval }
		}
		timer.Reset(next())
		select {
		case <-w.stop:
			return
		case <-w.wake:
		case <-timer.C:
		}
	}
}

// sleep is how long to wait before looking at the queue again: until the
// next attempt falls due, at most PollInterval (deliveries queued by other
// processes, leases that run out).
func (w *Worker) sleep() time.Duration {
	d := w.cfg.PollInterval
	q, ok := w.q.(dueQueue)
	if !ok {
		return d
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	next, ok, err := q.NextDeliveryDue(ctx)
	cancel()
	if err != nil {
		w.log.Error("webhook: reading the next due delivery failed", "err", err)
		return d
	}
	if ok {
		// A floor keeps a row due now but not yet claimable (a clock a
		// little ahead elsewhere) from spinning the loop.
		d = min(d, max(next.Sub(w.clock.Now()), time.Millisecond))
	}
	return d
}

// poll claims as many due attempts as there are free slots, each within
// its destination's and account's share, and starts them; it reports
// whether all slots are now busy, and whether due deliveries were held
// back for their share.
func (w *Worker) poll() (busy, held bool) {
	free := cap(w.slots) - len(w.slots)
	if free == 0 {
		return true, false
	}
	admit, heldBack := w.flight.admitter(w.cfg.PerDestination, w.cfg.PerAccount)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	claims, err := w.q.ClaimDeliveries(ctx, w.clock.Now(), w.cfg.Lease, free, len(w.cfg.Delays), admit)
	cancel()
	if err != nil {
		w.log.Error("webhook: claiming deliveries failed", "err", err)
		return false, false
	}
	for _, c := range claims {
		w.slots <- struct{}{}
		w.inflight.Add(1)
		w.flight.begin(c)
		go w.attempt(c)
	}
	return len(claims) == free, heldBack()
}

// attempt sends one claimed attempt and records its result.
func (w *Worker) attempt(c *corewebhook.Claim) {
	defer func() {
		w.flight.end(c)
		<-w.slots
		w.inflight.Done()
		w.Wake()
	}()
	res := w.send.send(w.sendCtx, c)
	var next *time.Time
	if !res.OK && c.Attempt < len(w.cfg.Delays) {
		t := w.clock.Now().Add(w.cfg.Delays[c.Attempt])
		next = &t
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.q.FinishAttempt(ctx, c, res, next)
	attrs := []any{"webhook", c.Delivery.WebhookID, "event", c.Delivery.Event, "event_id", c.Delivery.EventID, "job_id", payloadJobID(c.Delivery.Payload),
		"attempt", c.Attempt, "status", res.StatusCode, "latency", res.Latency}
	switch {
	case errors.Is(err, corewebhook.ErrLeaseLost):
		w.log.Warn("webhook: attempt outlived its lease; its result is not recorded", attrs...)
	case err != nil:
		w.log.Error("webhook: recording an attempt failed", append(attrs, "err", err)...)
	case res.OK:
		w.log.Info("webhook delivered", attrs...)
	case next != nil:
		w.log.Info("webhook attempt failed; will retry", append(attrs, "error", res.Error, "retry_at", *next)...)
	default:
		w.log.Warn("webhook delivery abandoned after the last attempt", append(attrs, "error", res.Error)...)
	}
}

func (w *Worker) prune() {
	p, ok := w.q.(pruner)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := p.PruneDeliveries(ctx, w.clock.Now().Add(-w.cfg.KeepHistory)); err != nil {
		w.log.Warn("webhook: pruning old deliveries failed", "err", err)
	}
}

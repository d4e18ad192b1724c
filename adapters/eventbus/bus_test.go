package eventbus

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ThreeDotsLabs/watermill/message"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// fastRetry keeps failure tests short.
var fastRetry = []Option{
	WithRetries(0),
	WithBackoff(func(int) time.Duration { return 20 * time.Millisecond }),
	WithCloseTimeout(2 * time.Second),
}

func newTestBus(t *testing.T, dir string, opts ...Option) *Bus {
	t.Helper()
	b, err := NewEmbedded(dir, quiet, append(append([]Option{}, fastRetry...), opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func start(t *testing.T, b *Bus) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := b.Start(ctx); err != nil {
		t.Fatal(err)
	}
}

func publish(t *testing.T, b *Bus, topic ports.Topic, jobID string) {
	t.Helper()
	if err := b.Publish(context.Background(), topic, ports.JobEvent{JobID: jobID, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestEventRoundTrip(t *testing.T) {
	b := newTestBus(t, t.TempDir())
	got := make(chan ports.JobEvent, 1)
	var attempt atomic.Int64
	b.Handle("convert", ports.TopicAccepted, func(ctx context.Context, e ports.JobEvent) error {
		attempt.Store(int64(Attempt(ctx)))
		got <- e
		return nil
	})
	start(t, b)
	want := ports.JobEvent{EventID: "3f0c2f55-0c56-4a53-9a53-0d4bf1f0b6a1", JobID: "job-1", AccountID: "acc-1",
		Status: "pending", At: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), Error: "none"}
	if err := b.Publish(context.Background(), ports.TopicAccepted, want); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-got:
		if e != want {
			t.Fatalf("got %+v, want %+v", e, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("event not delivered")
	}
	if attempt.Load() != 1 {
		t.Fatalf("Attempt(ctx) = %d on first delivery", attempt.Load())
	}
}

// A failing handler is redelivered, however many times, until its event
// is older than WithGiveUpAfter; a give-up that cannot be recorded keeps
// the event, and the next failure tries again.
func TestFailedHandlerIsRetriedForATimeThenGivenUp(t *testing.T) {
	var gaveUp []ports.JobEvent
	var mu sync.Mutex
	tries := 0
	b := newTestBus(t, t.TempDir(), WithGiveUpAfter(time.Second), WithOnGiveUp(
		func(_ context.Context, handler string, topic ports.Topic, e ports.JobEvent, err error) error {
			mu.Lock()
			defer mu.Unlock()
			if handler != "translate" || topic != ports.TopicExtracted || err == nil {
				t.Errorf("give-up called with %q %q %v", handler, topic, err)
			}
			if tries++; tries == 1 {
				return errors.New("database down: the failure is not recorded")
			}
			gaveUp = append(gaveUp, e)
			return nil
		}))
	var attempts []int
	began := time.Now()
	var firstGiveUp time.Duration
	b.Handle("translate", ports.TopicExtracted, func(ctx context.Context, e ports.JobEvent) error {
		mu.Lock()
		defer mu.Unlock()
		attempts = append(attempts, Attempt(ctx))
		if tries > 0 && firstGiveUp == 0 {
			firstGiveUp = time.Since(began)
		}
		return errors.New("engine down")
	})
	start(t, b)
	publish(t, b, ports.TopicExtracted, "job-poison")
	waitFor(t, "give-up", 20*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(gaveUp) == 1 })
	time.Sleep(300 * time.Millisecond) // an ack that did not stick would redeliver by now
	mu.Lock()
	defer mu.Unlock()
	if len(attempts) < 10 || firstGiveUp < time.Second {
		t.Fatalf("%d deliveries, first give-up after %s: want many deliveries for at least a second", len(attempts), firstGiveUp)
	}
	if tries != 2 || len(gaveUp) != 1 || gaveUp[0].JobID != "job-poison" {
		t.Fatalf("gave up %d times on %+v", tries, gaveUp)
	}
}

func TestPanicIsRecoveredAndRetried(t *testing.T) {
	b := newTestBus(t, t.TempDir())
	var calls atomic.Int64
	done := make(chan struct{})
	b.Handle("layout", ports.TopicAssembled, func(ctx context.Context, e ports.JobEvent) error {
		if calls.Add(1) == 1 {
			panic("boom")
		}
		close(done)
		return nil
	})
	start(t, b)
	publish(t, b, ports.TopicAssembled, "job-panic")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("event not redelivered after the panic")
	}
	if calls.Load() != 2 {
		t.Fatalf("handler called %d times, want 2", calls.Load())
	}
}

func TestInPlaceRetry(t *testing.T) {
	b := newTestBus(t, t.TempDir(), WithRetries(2))
	var calls atomic.Int64
	var lastAttempt atomic.Int64
	done := make(chan struct{})
	b.Handle("notify", ports.TopicCompleted, func(ctx context.Context, e ports.JobEvent) error {
		lastAttempt.Store(int64(Attempt(ctx)))
		if calls.Add(1) < 3 {
			return errors.New("transient")
		}
		close(done)
		return nil
	})
	start(t, b)
	publish(t, b, ports.TopicCompleted, "job-retry")
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("not handled")
	}
	if lastAttempt.Load() != 1 {
		t.Fatalf("in-place retries should stay within delivery 1, got attempt %d", lastAttempt.Load())
	}
}

// A handler that runs for several AckWaits must not see its event again:
// the subscriber sends in-progress acks while it runs.
func TestLongHandlerIsNotRedelivered(t *testing.T) {
	const ackWait = 600 * time.Millisecond
	b := newTestBus(t, t.TempDir(), WithAckWait(ackWait))
	var calls atomic.Int64
	b.Handle("convert", ports.TopicAccepted, func(ctx context.Context, e ports.JobEvent) error {
		calls.Add(1)
		select {
		case <-time.After(4 * ackWait):
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	})
	start(t, b)
	publish(t, b, ports.TopicAccepted, "job-long")
	waitFor(t, "first delivery", 5*time.Second, func() bool { return calls.Load() == 1 })
	time.Sleep(4*ackWait + 2*ackWait)
	if n := calls.Load(); n != 1 {
		t.Fatalf("long handler ran %d times, want 1", n)
	}
}

func TestUndecodablePayloadIsGivenUpAtOnce(t *testing.T) {
	gaveUp := make(chan error, 1)
	b := newTestBus(t, t.TempDir(), WithOnGiveUp(func(_ context.Context, _ string, _ ports.Topic, _ ports.JobEvent, err error) error {
		gaveUp <- err
		return nil
	}))
	var calls atomic.Int64
	b.Handle("convert", ports.TopicAccepted, func(context.Context, ports.JobEvent) error { calls.Add(1); return nil })
	start(t, b)
	if err := b.pub.Publish(string(ports.TopicAccepted), message.NewMessage("not-json", []byte("{oops"))); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-gaveUp:
		if !errors.Is(err, errUndecodable) {
			t.Fatalf("give-up error %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no give-up")
	}
	if calls.Load() != 0 {
		t.Fatal("handler saw an undecodable payload")
	}
}

// Publishing the same EventID twice (a retried stage) stores it once.
func TestSameEventIDIsStoredOnce(t *testing.T) {
	b := newTestBus(t, t.TempDir())
	var calls atomic.Int64
	b.Handle("assemble", ports.TopicTranslated, func(context.Context, ports.JobEvent) error { calls.Add(1); return nil })
	start(t, b)
	e := ports.JobEvent{EventID: "6c1e1d6e-9d7a-4f7e-8a57-2b0f7f3e1a10", JobID: "job-dup"}
	for range 2 {
		if err := b.Publish(context.Background(), ports.TopicTranslated, e); err != nil {
			t.Fatal(err)
		}
	}
	publish(t, b, ports.TopicTranslated, "job-other")
	waitFor(t, "two distinct events", 10*time.Second, func() bool { return calls.Load() >= 2 })
	time.Sleep(200 * time.Millisecond)
	if calls.Load() != 2 {
		t.Fatalf("handled %d events, want 2", calls.Load())
	}
}

func TestHandleAfterStartPanics(t *testing.T) {
	b := newTestBus(t, t.TempDir())
	start(t, b)
	defer func() {
		if recover() == nil {
			t.Fatal("no panic")
		}
	}()
	b.Handle("late", ports.TopicFailed, func(context.Context, ports.JobEvent) error { return nil })
}

// Events published before any handler exists (and before a restart) are
// kept and delivered once a group subscribes.
func TestEventsOutliveRestart(t *testing.T) {
	dir := t.TempDir()
	b1 := newTestBus(t, dir)
	start(t, b1)
	for i := range 10 {
		publish(t, b1, ports.TopicConverted, fmt.Sprintf("job-%d", i))
	}
	if err := b1.Close(); err != nil {
		t.Fatal(err)
	}
	b2 := newTestBus(t, dir)
	var mu sync.Mutex
	seen := map[string]int{}
	b2.Handle("extract", ports.TopicConverted, func(_ context.Context, e ports.JobEvent) error {
		mu.Lock()
		seen[e.JobID]++
		mu.Unlock()
		return nil
	})
	start(t, b2)
	waitFor(t, "10 events after restart", 10*time.Second, func() bool { mu.Lock(); defer mu.Unlock(); return len(seen) == 10 })
}

// Close cancels running handlers and hands their events back at once
// (not after AckWait), without spending the give-up budget on them.
func TestCloseHandsBackRunningEvents(t *testing.T) {
	dir := t.TempDir()
	b1 := newTestBus(t, dir, WithGiveUpAfter(0), WithOnGiveUp(func(context.Context, string, ports.Topic, ports.JobEvent, error) error {
		t.Error("an event interrupted by shutdown was given up")
		return nil
	}))
	running := make(chan struct{})
	b1.Handle("convert", ports.TopicAccepted, func(ctx context.Context, e ports.JobEvent) error {
		close(running)
		<-ctx.Done()
		return ctx.Err()
	})
	start(t, b1)
	publish(t, b1, ports.TopicAccepted, "job-interrupted")
	<-running
	if err := b1.Close(); err != nil {
		t.Fatal(err)
	}

	b2 := newTestBus(t, dir) // default AckWait: 30 s
	got := make(chan int, 1)
	b2.Handle("convert", ports.TopicAccepted, func(ctx context.Context, e ports.JobEvent) error {
		got <- Attempt(ctx)
		return nil
	})
	start(t, b2)
	select {
	case n := <-got:
		if n != 2 {
			t.Fatalf("attempt %d, want 2", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("interrupted event not handed back before AckWait")
	}
}

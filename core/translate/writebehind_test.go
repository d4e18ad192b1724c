package translate

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk/translation"
)

// slowTM is a memory whose writes wait for a token on gate.
type slowTM struct {
	*memoryTM
	gate chan struct{}
	puts chan int // entries of each write as it starts
}

func (s *slowTM) PutTM(ctx context.Context, account, engine, mode, src, tgt string, entries map[string]string) error {
	s.puts <- len(entries)
	<-s.gate
	return s.memoryTM.PutTM(ctx, account, engine, mode, src, tgt, entries)
}

func (s *slowTM) stored() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m)
}

// A job does not wait for its memory writes; what is still queued answers
// the next job; Close writes everything before it returns.
func TestMemoryWritesBehindAndCloseFlushes(t *testing.T) {
	u := &upper{}
	tm := &slowTM{memoryTM: newMemoryTM(), gate: make(chan struct{}), puts: make(chan int, 100)}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}, TM: tm}
	texts := []string{"One.", "Two.", "Three.", "Four.", "Five."}

	done := make(chan error, 1)
	go func() {
		_, err := tr.Translate(ctx, docOf(texts...), "en", "fr", translation.Full)
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Translate waited for the memory writes")
	}
	<-tm.puts // the writer has started on the first batch and is blocked
	if n := tm.stored(); n != 0 {
		t.Fatalf("%d entries stored while the store was blocked", n)
	}

	// The queued entries answer a second job without the engine.
	d := docOf(texts...)
	res, err := tr.Translate(ctx, d, "en", "fr", translation.Full)
	if err != nil {
		t.Fatal(err)
	}
	if res.Metrics.EngineCalls != 0 || res.Metrics.CacheHits != 5 || targets(d)[4] != "FIVE./fr" {
		t.Errorf("second job %+v, targets %q; want 5 hits from the queue", res.Metrics, targets(d))
	}

	// Close cannot finish while the store is blocked…
	short, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if err := tr.Close(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with the store blocked: %v, want the deadline", err)
	}
	// …and returns once every queued entry is written.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case tm.gate <- struct{}{}:
			case <-stop:
				return
			}
		}
	}()
	err = tr.Close(ctx)
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if n := tm.stored(); n != 5 {
		t.Fatalf("%d entries stored when Close returned, want 5", n)
	}
}

// After Close, writes are synchronous: nothing is queued that no one
// would write.
func TestMemoryWritesAfterCloseAreSynchronous(t *testing.T) {
	tm := newMemoryTM()
	tr := &Translator{Engines: registry{engine("upper", &upper{}, ports.Capabilities{AnyToAny: true})}, TM: tm}
	if err := tr.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Translate(ctx, docOf("One.", "Two."), "en", "fr", translation.Full); err != nil {
		t.Fatal(err)
	}
	tm.mu.Lock()
	n := len(tm.m)
	tm.mu.Unlock()
	if n != 2 {
		t.Errorf("%d entries stored when Translate returned after Close, want 2", n)
	}
}

// The queue is bounded: past MemoryQueue entries a job writes its own.
func TestMemoryQueueBounded(t *testing.T) {
	tm := &slowTM{memoryTM: newMemoryTM(), gate: make(chan struct{}), puts: make(chan int, 100)}
	tr := &Translator{Engines: registry{engine("upper", &upper{}, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}, TM: tm, MemoryQueue: 2}
	done := make(chan error, 1)
	go func() {
		_, err := tr.Translate(ctx, docOf("One.", "Two.", "Three.", "Four."), "en", "fr", translation.Full)
		done <- err
	}()
	// Two batches of two: one queued (the limit), one written by the job;
	// both block on the gate, and the job cannot finish before its own.
	<-tm.puts
	<-tm.puts
	select {
	case err := <-done:
		t.Fatalf("Translate returned (%v) before its synchronous write", err)
	case <-time.After(100 * time.Millisecond):
	}
	tm.gate <- struct{}{}
	tm.gate <- struct{}{}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := tr.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n := tm.stored(); n != 4 {
		t.Errorf("%d entries stored, want 4", n)
	}
}

func TestBatchSegmentsCapsBatches(t *testing.T) {
	u := &upper{}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 10})}, BatchSegments: 3}
	if _, err := tr.Translate(ctx, docOf("A a.", "B b.", "C c.", "D d.", "E e.", "F f.", "G g."), "en", "fr", translation.Full); err != nil {
		t.Fatal(err)
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	var sizes []int
	for _, r := range u.requests {
		sizes = append(sizes, len(r.Segments))
	}
	if len(sizes) != 3 || sizes[0]+sizes[1]+sizes[2] != 7 || max(sizes[0], sizes[1], sizes[2]) != 3 {
		t.Errorf("batches of %v, want 3+3+1", sizes)
	}
	// The engine's own limit still wins when it is lower.
	u.requests = nil
	u.mu.Unlock()
	tr2 := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}, BatchSegments: 5}
	if _, err := tr2.Translate(ctx, docOf("A a.", "B b.", "C c.", "D d.", "E e."), "en", "fr", translation.Full); err != nil {
		t.Fatal(err)
	}
	u.mu.Lock()
	if len(u.requests) != 3 {
		t.Errorf("%d calls with MaxSegments 2 and BatchSegments 5, want 3", len(u.requests))
	}
}

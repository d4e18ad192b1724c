package translate

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/segment"
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

// The memory is a job's checkpoint: a batch returns only once the
// engine's answers are written, so a job rerun after its worker died finds
// every batch that returned. Answers that come while a write runs are
// written together next (group commit).
func TestEngineAnswersAreStoredBeforeTheBatchReturns(t *testing.T) {
	tm := &slowTM{memoryTM: newMemoryTM(), gate: make(chan struct{}), puts: make(chan int, 100)}
	tr := &Translator{Engines: registry{engine("upper", &upper{}, ports.Capabilities{AnyToAny: true, MaxSegments: 2})}, TM: tm}
	done := make(chan error, 1)
	go func() {
		_, err := tr.Translate(ctx, docOf("One.", "Two.", "Three."), "en", "fr", translation.Full)
		done <- err
	}()
	first := <-tm.puts // one write runs and waits; the other batch's answer waits for it
	select {
	case err := <-done:
		t.Fatalf("Translate returned (%v) before the engine answers were written", err)
	case <-time.After(100 * time.Millisecond):
	}
	close(tm.gate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := tm.stored(); n != 3 {
		t.Errorf("%d entries stored when Translate returned, want 3", n)
	}
	if n := len(tm.puts); first+n > 3 || n > 1 {
		t.Errorf("writes of %d and %d more entries for 3 answers", first, n)
	}
}

// Batches of one job translated at once send each distinct text once: a
// text another batch is sending is waited for, one answered is reused.
func TestSessionSendsATextOnceAcrossBatches(t *testing.T) {
	u := &upper{gate: make(chan struct{})}
	tr := &Translator{Engines: registry{engine("upper", u, ports.Capabilities{AnyToAny: true})}}
	s, err := tr.Begin(ctx, "en", "fr", translation.Full, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := docOf("Shared.", "Only A."), docOf("Only B.", "Shared."), docOf("Shared.")
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for _, d := range []*segment.Document{a, b} {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- s.Translate(ctx, d.Units) }()
	}
	// Both batches are at the engine or waiting for the other's text.
	for u.calls() < 2 && !waitingCalls(u, 1) {
		time.Sleep(time.Millisecond)
	}
	close(u.gate)
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Translate(ctx, c.Units); err != nil {
		t.Fatal(err)
	}
	sent := map[string]int{}
	for _, x := range u.sent() {
		sent[x]++
	}
	if sent["Shared."] != 1 || len(sent) != 3 {
		t.Errorf("sent %v, want each of the three texts once", sent)
	}
	for _, d := range []*segment.Document{a, b, c} {
		for _, got := range targets(d) {
			if got == "" || got[len(got)-3:] != "/fr" {
				t.Errorf("target %q", got)
			}
		}
	}
	if m := s.Result().Metrics; m.Segments != 5 || m.EngineCalls != 2 {
		t.Errorf("metrics %+v", m)
	}
}

// waitingCalls: n calls reached the engine.
func waitingCalls(u *upper, n int) bool {
	time.Sleep(50 * time.Millisecond)
	return u.calls() >= n
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

package pool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// Waiters are served tenant by tenant in turn, first come first served
// within a tenant, and never beyond what a tenant may hold.
func TestTurnsServeTenantsInTurn(t *testing.T) {
	var q turns
	var order []string
	push := func(tenant string) { q.push(&waiter{tenant: tenant, got: make(chan *instance, 1)}) }
	for _, tenant := range []string{"a", "a", "a", "b", "c", "b"} {
		push(tenant)
	}
	serve := func(perTenant int) string {
		w := q.next(perTenant)
		if w == nil {
			return "-"
		}
		return w.tenant
	}
	// Three may each hold two: a, b, c, then a and b again.
	for range 5 {
		order = append(order, serve(2))
	}
	if want := []string{"a", "b", "c", "a", "b"}; !slices.Equal(order, want) {
		t.Fatalf("served %v, want %v", order, want)
	}
	if got := serve(2); got != "-" {
		t.Fatalf("a holds 2 of 2 and got a third: %s", got)
	}
	if n := q.servable(2); n != 0 {
		t.Fatalf("servable %d with a at its cap", n)
	}
	q.returned("a")
	if n := q.servable(2); n != 1 {
		t.Fatalf("servable %d after a gave one back, want 1", n)
	}
	if got := serve(2); got != "a" {
		t.Fatalf("after a gave one back, served %s", got)
	}
	w := &waiter{tenant: "d", got: make(chan *instance, 1)}
	q.push(w)
	if !q.remove(w) || q.waiting() {
		t.Fatalf("a removed waiter left %v in turn", q.ring)
	}
}

// issue 26: one tenant's slow documents cannot hold every instance.
// Tenant a sends two documents that each take tens of seconds; tenant b's
// small RTF gets the instance a may not take and is converted while a's
// first still runs and a's second waits its turn. Cancelling a's calls
// kills the soffice working for them at once.
func TestOneTenantCannotHoldEveryInstance(t *testing.T) {
	p := newTestPool(t, Config{Size: 2, CPU: time.Hour}) // PerTenant: 1
	slow := pooltest.SlowODT(1500)                       // 35 s on a warm instance, unloaded
	ctxA, cancelA := context.WithCancel(WithTenant(context.Background(), "a"))
	defer cancelA()
	doneA := make(chan error, 2)
	for range 2 {
		go func() { doneA <- p.Convert(ctxA, ODT, bytes.NewReader(slow), io.Discard) }()
	}
	var busy *instance
	waitFor(t, 2*time.Minute, "a's first conversion running and its second waiting", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		if len(p.idle) != 1 || p.turns.held["a"] != 1 || len(p.turns.queues["a"]) != 1 {
			return false
		}
		for in := range p.live {
			if in != p.idle[0] {
				busy = in
			}
		}
		return true
	})
	start := time.Now()
	_, err := convertFile(t, p, WithTenant(context.Background(), "b"), RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
	took := time.Since(start)
	if err != nil {
		t.Fatalf("tenant b: %+v", err)
	}
	t.Logf("tenant b's RTF converted in %s while tenant a's two slow documents were running or waiting", took.Round(time.Millisecond))
	select {
	case err := <-doneA:
		t.Fatalf("a conversion of tenant a ended (%v) before b's was served: b waited for it", err)
	default:
	}
	p.mu.Lock()
	waiting := len(p.turns.queues["a"])
	p.mu.Unlock()
	if waiting != 1 {
		t.Fatalf("tenant a's second conversion is not waiting (%d waiting): a held both instances", waiting)
	}

	cancelA()
	began := time.Now()
	for range 2 {
		select {
		case err := <-doneA:
			if !errors.Is(err, context.Canceled) {
				t.Errorf("a cancelled conversion returned %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Fatal("a cancelled conversion still runs after 30 s")
		}
	}
	t.Logf("both of tenant a's conversions returned %s after the cancel", time.Since(began).Round(time.Millisecond))
	if err := syscall.Kill(-busy.office.currentPID(), 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the soffice converting for the cancelled call is still alive (%v)", err)
	}
}

func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(limit); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %s after %s", what, limit)
		}
	}
}

// When every instance is busy and more than one tenant uses the pool, a
// spare starts at once, so the next tenant's conversion does not wait for
// an instance to start (seconds).
func TestSpareStartsWhenTenantsShareABusyPool(t *testing.T) {
	tmp := t.TempDir()
	p := newLazyPool(t, Config{Size: 2, TempDir: tmp, CPU: time.Hour})
	footnote := filepath.Join(corpus, "rtf/pandoc-footnote.rtf")
	if _, err := convertFile(t, p, WithTenant(context.Background(), "a"), RTF, footnote); err != nil {
		t.Fatal(err)
	}
	if n := p.Running(); n != 1 {
		t.Fatalf("one tenant, one conversion: %d instances", n)
	}
	if _, err := convertFile(t, p, WithTenant(context.Background(), "b"), RTF, footnote); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(WithTenant(context.Background(), "a"))
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- p.Convert(ctx, ODT, bytes.NewReader(pooltest.SlowODT(1500)), io.Discard) }()
	waitFor(t, 5*time.Minute, "a spare instance beside the busy one", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return len(p.idle) == 1 && len(p.live) == 2
	})
	cancel()
	<-done
}

// A conversion whose warm instance dies is retried on a one-shot soffice
// outside the pool. That soffice works for the same tenant: it keeps the
// tenant's share and the instance's place until it ends, or a tenant
// sending documents that crash LibreOffice ran one cold soffice per
// document beside its share, and the pool started replacements beside
// them, past its size.
func TestColdRetryKeepsItsTenantsShare(t *testing.T) {
	var rtf bytes.Buffer
	rtf.WriteString(`{\rtf1\ansi\deff0{\fonttbl{\f0 Times;}}` + "\n")
	for i := range 40000 {
		fmt.Fprintf(&rtf, `\pard Paragraph %d with {\b bold} and {\i italic} words to lay out.\par`+"\n", i)
	}
	rtf.WriteString("}")
	p := newTestPool(t, Config{Size: 2, CPU: time.Hour}) // PerTenant: 1
	ctxA := WithTenant(context.Background(), "a")
	first := make(chan error, 1)
	go func() { first <- p.Convert(ctxA, RTF, bytes.NewReader(rtf.Bytes()), io.Discard) }()
	var busy *instance
	waitFor(t, 2*time.Minute, "a's conversion on a warm instance", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.turns.held["a"] != 1 || len(p.idle) != 1 {
			return false
		}
		for in := range p.live {
			if in != p.idle[0] {
				busy = in
			}
		}
		return busy != nil
	})
	time.Sleep(time.Second) // the document is with soffice
	syscall.Kill(-busy.office.currentPID(), syscall.SIGKILL)
	waitFor(t, time.Minute, "the crashed instance gone", func() bool {
		p.mu.Lock()
		defer p.mu.Unlock()
		return !p.live[busy]
	})
	p.mu.Lock()
	held, room := p.turns.held["a"], p.room()
	p.mu.Unlock()
	second := make(chan error, 1)
	go func() {
		_, err := convertFile(t, p, ctxA, RTF, filepath.Join(corpus, "rtf/pandoc-footnote.rtf"))
		second <- err
	}()
	var order []string
	for range 2 {
		select {
		case err := <-first:
			order = append(order, fmt.Sprintf("first (%v)", err))
		case err := <-second:
			order = append(order, fmt.Sprintf("second (%v)", err))
		}
	}
	if held != 1 || room || !strings.HasPrefix(order[0], "first") {
		t.Errorf("during a's cold retry: a holds %d, room for another instance %v; finished in order %v: want a's share (1) and the crashed instance's place kept, a's second document after its first",
			held, room, order)
	}
}

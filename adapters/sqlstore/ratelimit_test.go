package sqlstore

import (
	"sync"
	"testing"
	"time"
)

func testRateLimit(t *testing.T, b backend) {
	s := newStore(t, b)
	clock := &fakeClock{}
	s.SetClock(clock)
	t1 := time.Date(2026, 3, 14, 15, 9, 20, 250_000_000, time.UTC)
	for i := 0; i < 3; i++ {
		clock.Set(t1.Add(time.Duration(i) * time.Second))
		ok, _, err := s.Allow(ctx, "acct:a1", 3)
		if err != nil || !ok {
			t.Fatalf("request %d: ok=%v err=%v", i+1, ok, err)
		}
	}
	clock.Set(t1.Add(10 * time.Second))
	ok, retry, err := s.Allow(ctx, "acct:a1", 3)
	if err != nil || ok {
		t.Fatalf("4th request passed: %v", err)
	}
	if retry != 50*time.Second {
		t.Fatalf("retryAfter %v, want 50s (until the first request leaves the window)", retry)
	}
	// Another key has its own count; unlimited counts nothing.
	if ok, _, _ := s.Allow(ctx, "acct:a2", 3); !ok {
		t.Fatal("other key limited")
	}
	if ok, _, _ := s.Allow(ctx, "acct:a1", 0); !ok {
		t.Fatal("limit 0 (unlimited) refused")
	}
	// The last instant the first request is in the window it still counts.
	clock.Set(t1.Add(time.Minute - time.Microsecond))
	if ok, retry, _ := s.Allow(ctx, "acct:a1", 3); ok || retry != time.Microsecond {
		t.Fatalf("end of window: ok=%v retry=%v", ok, retry)
	}
	clock.Set(t1.Add(time.Minute))
	if ok, _, _ := s.Allow(ctx, "acct:a1", 3); !ok {
		t.Fatal("first request left the window, still limited")
	}
	// The second and third still count: the window is full again, until
	// the second leaves it.
	if ok, retry, _ := s.Allow(ctx, "acct:a1", 3); ok || retry != time.Second {
		t.Fatalf("ok=%v retry=%v, want refused for 1s", ok, retry)
	}
	// Two windows later the old requests are pruned.
	clock.Set(t1.Add(3 * time.Minute))
	if ok, _, _ := s.Allow(ctx, "acct:a1", 3); !ok {
		t.Fatal("third window limited")
	}
	var old int
	if err := s.r.Get(&old, s.r.Rebind("SELECT COUNT(*) FROM rate_limit_slots WHERE at < ?"), t1.Add(2*time.Minute).UnixMicro()); err != nil {
		t.Fatal(err)
	}
	if old != 0 {
		t.Fatalf("%d rows of old requests kept", old)
	}
}

// testRateLimitMinuteBoundary: a free account (10 requests a minute) that
// sends 10 requests just before a minute boundary and 10 just after gets
// exactly 10 through (a window fixed to the clock let all 20 pass in 2 s),
// and any 60 s span lets at most 10 through.
func testRateLimitMinuteBoundary(t *testing.T, b backend) {
	s := newStore(t, b)
	clock := &fakeClock{}
	s.SetClock(clock)
	const limit = 10 // the free plan
	boundary := time.Date(2026, 3, 14, 15, 10, 0, 0, time.UTC)
	var passed []time.Time
	send := func(at time.Time) (bool, time.Duration) {
		clock.Set(at)
		ok, retry, err := s.Allow(ctx, "rpm:free", limit)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			passed = append(passed, at)
		}
		return ok, retry
	}
	for i := 0; i < 20; i++ { // 10 per second from 1 s before the boundary
		send(boundary.Add(-time.Second + time.Duration(i)*100*time.Millisecond))
	}
	if len(passed) != limit {
		t.Fatalf("%d of 20 requests in 2 s across a minute boundary passed, want exactly %d", len(passed), limit)
	}
	// Retry-After is exact: the first request leaves the window 60 s after
	// it was let through, and not a microsecond earlier.
	first := boundary.Add(-time.Second)
	ok, retry := send(boundary.Add(900 * time.Millisecond))
	if ok || retry != first.Add(time.Minute).Sub(boundary.Add(900*time.Millisecond)) {
		t.Fatalf("ok=%v retryAfter=%v, want refused for %v", ok, retry, first.Add(time.Minute).Sub(boundary.Add(900*time.Millisecond)))
	}
	if ok, _ := send(first.Add(time.Minute - time.Microsecond)); ok {
		t.Fatal("passed before the oldest request left the window")
	}
	if ok, _ := send(first.Add(time.Minute)); !ok {
		t.Fatal("refused once the oldest request left the window")
	}
	// A steady stream for three minutes, one request every 1.7 s: no 60 s
	// span holds more than limit passed requests.
	for at := first.Add(time.Minute + time.Second); at.Before(boundary.Add(4 * time.Minute)); at = at.Add(1700 * time.Millisecond) {
		send(at)
	}
	for i := range passed {
		n := 0
		for _, p := range passed[i:] {
			if p.Sub(passed[i]) < time.Minute {
				n++
			}
		}
		if n > limit {
			t.Fatalf("%d requests passed in the minute from %v", n, passed[i])
		}
	}
}

// testRateLimitConcurrent: exactly limit requests pass per window, across
// two Store instances (two processes' pools) on one database.
func testRateLimitConcurrent(t *testing.T, b backend) {
	target := b.target(t)
	var stores []*Store
	for i := 0; i < 2; i++ {
		s, err := b.open(target)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		stores = append(stores, s)
	}
	const limit, requests = 10, 60
	var wg sync.WaitGroup
	var mu sync.Mutex
	passed := 0
	var maxRetry time.Duration
	for i := 0; i < requests; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			ok, retry, err := stores[i%2].Allow(ctx, "key:shared", limit)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			defer mu.Unlock()
			if ok {
				passed++
			} else if retry <= 0 || retry > time.Minute {
				t.Errorf("retryAfter %v", retry)
			}
			maxRetry = max(maxRetry, retry)
		}(i)
	}
	wg.Wait()
	// The window slides: exactly limit pass, even across a minute boundary.
	if passed != limit {
		t.Fatalf("%d passed, want exactly %d", passed, limit)
	}
}

// testRateLimitNewLimit: a plan change gives the key a ring of the new
// size with the requests still in the window, so the limit stays exact
// when it grows and when it shrinks.
func testRateLimitNewLimit(t *testing.T, b backend) {
	s := newStore(t, b)
	clock := &fakeClock{}
	s.SetClock(clock)
	t1 := time.Date(2026, 3, 14, 15, 9, 20, 0, time.UTC)
	allow := func(sec, limit int) (bool, time.Duration) {
		t.Helper()
		clock.Set(t1.Add(time.Duration(sec) * time.Second))
		ok, retry, err := s.Allow(ctx, "rpm:plan", limit)
		if err != nil {
			t.Fatal(err)
		}
		return ok, retry
	}
	for sec := 0; sec < 3; sec++ {
		if ok, _ := allow(sec, 3); !ok {
			t.Fatalf("request %d of 3 refused", sec+1)
		}
	}
	if ok, _ := allow(3, 3); ok {
		t.Fatal("a 4th request passed a limit of 3")
	}
	// Up to 5: two more pass, then the window is full until the first leaves.
	for sec := 3; sec < 5; sec++ {
		if ok, _ := allow(sec, 5); !ok {
			t.Fatalf("request %d refused after the limit grew to 5", sec+1)
		}
	}
	if ok, retry := allow(5, 5); ok || retry != 55*time.Second {
		t.Fatalf("6th request under a limit of 5: ok=%v retry=%v, want refused for 55s", ok, retry)
	}
	// Down to 2 with 5 in the window: refused until only one is left,
	// when the 4th (at 3 s) leaves.
	if ok, retry := allow(10, 2); ok || retry != 53*time.Second {
		t.Fatalf("under a limit of 2: ok=%v retry=%v, want refused for 53s", ok, retry)
	}
	if ok, _ := allow(63, 2); !ok {
		t.Fatal("refused with one request in the window and a limit of 2")
	}
	var slots int
	if err := s.r.Get(&slots, s.r.Rebind("SELECT COUNT(*) FROM rate_limit_slots WHERE key = ?"), "rpm:plan"); err != nil || slots > 2 {
		t.Fatalf("%d slots kept for a limit of 2 (%v)", slots, err)
	}
}

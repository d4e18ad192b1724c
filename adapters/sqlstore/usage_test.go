package sqlstore

import (
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/dragoman-translate/dragoman/core/quota"
)

func testUsage(t *testing.T, b backend) {
	s := newStore(t, b)
	used := func(acct, period string) int64 {
		t.Helper()
		n, err := s.Used(ctx, acct, period)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	limit := int64(1000)
	if n := used("a1", "2026-03"); n != 0 {
		t.Fatalf("fresh usage %d", n)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j1", 600, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j1", 600, &limit); err != nil {
		t.Fatalf("second reservation of the same job: %v", err)
	}
	if n := used("a1", "2026-03"); n != 600 {
		t.Fatalf("used %d after an idempotent reserve, want 600", n)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j2", 401, &limit); !errors.Is(err, quota.ErrExceeded) {
		t.Fatalf("over the limit: %v", err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j3", 400, &limit); err != nil {
		t.Fatalf("exactly the limit: %v", err)
	}
	if n := used("a1", "2026-03"); n != 1000 {
		t.Fatalf("used %d, want 1000", n)
	}
	// The refused reservation left nothing behind to release.
	if err := s.Release(ctx, "j2"); err != nil {
		t.Fatal(err)
	}
	if n := used("a1", "2026-03"); n != 1000 {
		t.Fatalf("used %d after releasing a refused job", n)
	}
	// Other periods and accounts are separate.
	if err := s.Reserve(ctx, "a1", "2026-04", "j4", 1000, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a2", "2026-03", "j5", 5_000_000, nil); err != nil {
		t.Fatalf("unlimited: %v", err)
	}
	if err := s.Release(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, "j1"); err != nil {
		t.Fatal(err)
	}
	if n := used("a1", "2026-03"); n != 400 {
		t.Fatalf("used %d after release (and a repeated one), want 400", n)
	}
	if n := used("a1", "2026-04"); n != 1000 {
		t.Fatalf("other period %d", n)
	}
	if n := used("a2", "2026-03"); n != 5_000_000 {
		t.Fatalf("other account %d", n)
	}
	// Released words can be reserved again, by a new job.
	if err := s.Reserve(ctx, "a1", "2026-03", "j6", 600, &limit); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j7", -1, &limit); err == nil {
		t.Fatal("negative words accepted")
	}
}

// testReserveConcurrent: racing reservations never overrun and the sum is exact.
func testReserveConcurrent(t *testing.T, b backend) {
	s := newStore(t, b)
	const workers = 20
	limit := int64(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var granted int64
	var ok, refused int
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			words := int64(37 + w*13) // 37..284: different sizes fill the limit unevenly
			err := s.Reserve(ctx, "a1", "2026-03", fmt.Sprintf("job-%d", w), words, &limit)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				granted += words
				ok++
			case errors.Is(err, quota.ErrExceeded):
				refused++
			default:
				errs <- err
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	n, err := s.Used(ctx, "a1", "2026-03")
	if err != nil {
		t.Fatal(err)
	}
	if n != granted || n > limit || ok == 0 || refused == 0 {
		t.Fatalf("used %d, granted %d (limit %d), %d ok, %d refused", n, granted, limit, ok, refused)
	}
	var reserved int64
	if err := s.r.Get(&reserved, "SELECT COALESCE(SUM(words), 0) FROM usage_reservations"); err != nil {
		t.Fatal(err)
	}
	if reserved != granted {
		t.Fatalf("reservations sum %d, granted %d", reserved, granted)
	}
	// Concurrent releases refund exactly.
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			if err := s.Release(ctx, fmt.Sprintf("job-%d", w)); err != nil {
				t.Error(err)
			}
		}(w)
	}
	wg.Wait()
	if n, _ := s.Used(ctx, "a1", "2026-03"); n != 0 {
		t.Fatalf("used %d after releasing everything", n)
	}
}

package sqlstore

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// testReserveAfterCancel: a reservation for a job that has ended reserves
// nothing (TestCLICtrlCCancelsItsJobs once found 36 words used and no
// completed job: the extract stage reserved after the cancellation had
// released the job's words). Raced with cancellations, every word reserved
// is released: nothing stays charged for a cancelled job.
func testReserveAfterCancel(t *testing.T, b backend) {
	s := newStore(t, b)
	now := t0.Add(time.Minute)
	start := func(id string) {
		t.Helper()
		if err := s.CreateJob(ctx, job.New(id, "a1", t0)); err != nil {
			t.Fatal(err)
		}
		if _, err := s.UpdateJob(ctx, id, func(j *job.Job) error { return j.Start(now) }); err != nil {
			t.Fatal(err)
		}
	}
	cancel := func(id string) error {
		if _, err := s.UpdateJob(ctx, id, func(j *job.Job) error { return j.Fail("cancelled", now) }); err != nil {
			return err
		}
		return s.Release(ctx, id)
	}
	used := func() int64 {
		t.Helper()
		n, err := s.Used(ctx, "a1", "2026-03")
		if err != nil {
			t.Fatal(err)
		}
		return n
	}

	start("cancelled")
	if err := cancel("cancelled"); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "cancelled", 36, nil); !errors.Is(err, quota.ErrJobEnded) {
		t.Fatalf("reserve after the cancellation: %v, want quota.ErrJobEnded", err)
	}
	if n := used(); n != 0 {
		t.Fatalf("%d words used after a reservation for a cancelled job", n)
	}
	// The use case charges nothing and does not fail the stage that asked.
	if err := quota.Reserve(ctx, s, "a1", "cancelled", t0, 36, nil); err != nil || used() != 0 {
		t.Fatalf("quota.Reserve for a cancelled job: %v, %d words used", err, used())
	}
	// A running job reserves as before.
	start("running")
	if err := s.Reserve(ctx, "a1", "2026-03", "running", 5, nil); err != nil || used() != 5 {
		t.Fatalf("a running job: %v, %d words used", err, used())
	}
	if err := cancel("running"); err != nil || used() != 0 {
		t.Fatalf("cancelling the running job: %v, %d words used", err, used())
	}

	// Reservations racing cancellations: whichever comes first, nothing
	// stays reserved.
	const jobs = 24
	var wg sync.WaitGroup
	errs := make(chan error, 2*jobs)
	for i := range jobs {
		id := fmt.Sprintf("race-%d", i)
		start(id)
		wg.Add(2)
		go func() {
			defer wg.Done()
			if err := s.Reserve(ctx, "a1", "2026-03", id, int64(10+i), nil); err != nil && !errors.Is(err, quota.ErrJobEnded) {
				errs <- err
			}
		}()
		go func() {
			defer wg.Done()
			if err := cancel(id); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var left int64
	if err := s.r.Get(&left, "SELECT COALESCE(SUM(words), 0) FROM usage_reservations"); err != nil {
		t.Fatal(err)
	}
	if n := used(); n != 0 || left != 0 {
		t.Fatalf("after %d cancelled jobs: %d words used, %d reserved", jobs, n, left)
	}
}

package sqlstore

import (
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

func fullJob(id, acct string, created time.Time) *job.Job {
	j := job.New(id, acct, created)
	j.SourceLang, j.DetectedLang, j.TargetLang = "auto", "en", "he"
	j.Mode, j.OriginalName, j.Format = job.Literal, "דוח שנתי.docx", "docx"
	j.Words, j.Engine, j.Structure, j.Attempts = 1234, "apertium", "3 tables, 2 images", 2
	j.Warnings = []string{"font Calibri has no Hebrew glyphs", "footnote kept in English"}
	j.RTL = &job.RTLReport{Status: "partial", Warnings: []string{"text box direction"}}
	j.Metrics = job.Metrics{EngineCalls: 3, CharsSent: 9000, CacheHits: 5, Segments: 77}
	j.PDF = job.PDFReady
	return j
}

func testJobRoundTrip(t *testing.T, b backend) {
	s := newStore(t, b)
	j := fullJob("j1", "acc", t0)
	done := t0.Add(90 * time.Second)
	j.CompletedAt, j.ExpiredAt, j.Error = &done, &done, "boom"
	if err := s.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, j) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, j)
	}
	if got.CreatedAt != t0.UTC().Truncate(time.Microsecond) {
		t.Fatalf("created %v", got.CreatedAt)
	}

	// A bare job: nil RTL, no warnings, nil times.
	bare := job.New("j2", "acc", t0)
	if err := s.CreateJob(ctx, bare); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetJob(ctx, "j2")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, bare) {
		t.Fatalf("bare round trip:\n got %+v\nwant %+v", got, bare)
	}

	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err == nil {
		t.Fatal("duplicate id accepted")
	}
	if _, err := s.GetJob(ctx, "nope"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing job: %v", err)
	}
}

func testUpdateJob(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err != nil {
		t.Fatal(err)
	}
	now := t0.Add(time.Minute)
	got, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("w1")
		j.RTL = &job.RTLReport{Status: "full", Warnings: []string{}}
		return j.Start(now)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != job.Processing {
		t.Fatalf("status %s", got.Status)
	}
	// A refused transition writes nothing, even changes fn made first.
	_, err = s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("must not be stored")
		return j.Complete(now)
	})
	if err != nil {
		t.Fatal(err) // processing -> completed is allowed
	}
	_, err = s.UpdateJob(ctx, "j1", func(j *job.Job) error {
		j.Warn("must not be stored either")
		j.ID = "hijack"
		return j.Fail("late", now) // completed -> failed is not
	})
	if !errors.Is(err, job.ErrTransition) {
		t.Fatalf("want ErrTransition, got %v", err)
	}
	stored, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if stored.Status != job.Completed || stored.Stage != job.StageFinished || !reflect.DeepEqual(stored.Warnings, []string{"w1", "must not be stored"}) {
		t.Fatalf("stored %+v", stored)
	}
	if stored.CompletedAt == nil || !stored.CompletedAt.Equal(now.Truncate(time.Microsecond)) {
		t.Fatalf("completed at %v", stored.CompletedAt)
	}
	if _, err := s.UpdateJob(ctx, "nope", func(*job.Job) error { return nil }); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("missing job: %v", err)
	}
}

// testUpdateJobConcurrent: read-modify-write under contention loses no update.
func testUpdateJobConcurrent(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateJob(ctx, job.New("j1", "acc", t0)); err != nil {
		t.Fatal(err)
	}
	const workers, each = 10, 10
	var wg sync.WaitGroup
	errs := make(chan error, workers*each)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				_, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error {
					j.Attempts++
					j.Warn(fmt.Sprintf("w%d-%d", w, i))
					return nil
				})
				if err != nil {
					errs <- err
				}
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	j, err := s.GetJob(ctx, "j1")
	if err != nil {
		t.Fatal(err)
	}
	if j.Attempts != workers*each || len(j.Warnings) != workers*each {
		t.Fatalf("attempts %d, warnings %d, want %d", j.Attempts, len(j.Warnings), workers*each)
	}
}

func testJobQueries(t *testing.T, b backend) {
	s := newStore(t, b)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	mk := func(id string, created int, fn func(j *job.Job)) {
		j := job.New(id, "acc", at(created))
		fn(j)
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	complete := func(m int) func(j *job.Job) {
		return func(j *job.Job) { j.Start(at(m)); j.Complete(at(m)) }
	}
	mk("pending", 0, func(*job.Job) {})
	mk("processing", 1, func(j *job.Job) { j.Start(at(1)) })
	mk("done-old", 2, complete(3))
	mk("done-new", 4, complete(20))
	mk("done-expired", 5, func(j *job.Job) { complete(6)(j); e := at(17); j.ExpiredAt = &e })
	mk("failed", 6, func(j *job.Job) { j.Fail("x", at(7)) })

	ids := func(js []*job.Job) []string {
		var out []string
		for _, j := range js {
			out = append(out, j.ID)
		}
		return out
	}
	un, err := s.Unfinished(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(un); !reflect.DeepEqual(got, []string{"pending", "processing"}) {
		t.Fatalf("unfinished %v", got)
	}
	cb, err := s.CompletedBefore(ctx, at(10))
	if err != nil {
		t.Fatal(err)
	}
	if got := ids(cb); !reflect.DeepEqual(got, []string{"done-old"}) {
		t.Fatalf("completed before %v", got)
	}
	// Sub-second precision in comparisons: exactly at the time is not before.
	cb, _ = s.CompletedBefore(ctx, at(3))
	if len(cb) != 0 {
		t.Fatalf("completed before its own time: %v", ids(cb))
	}
	cb, _ = s.CompletedBefore(ctx, at(3).Add(time.Microsecond))
	if len(cb) != 1 {
		t.Fatalf("completed 1µs before: %v", ids(cb))
	}
	del, err := s.DeleteJobsBefore(ctx, at(4))
	if err != nil {
		t.Fatal(err)
	}
	sortStrings(del)
	if !reflect.DeepEqual(del, []string{"done-old", "pending", "processing"}) {
		t.Fatalf("deleted %v", del)
	}
	if _, err := s.GetJob(ctx, "pending"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("deleted job still there: %v", err)
	}
	if _, err := s.GetJob(ctx, "done-new"); err != nil {
		t.Fatal(err)
	}
}

func sortStrings(s []string) {
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
}

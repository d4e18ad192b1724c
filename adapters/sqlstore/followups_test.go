package sqlstore

import (
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// What an ended job owes is stored with its terminal state and listed
// until it is done (issue 27), on both databases.
func TestJobFollowups(t *testing.T) {
	for _, b := range []backend{sqliteBackend, postgresBackend(t)} {
		t.Run(b.name, func(t *testing.T) { testJobFollowups(t, b) })
	}
}

func testJobFollowups(t *testing.T, b backend) {
	s := newStore(t, b)
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	mk := func(id string, fn func(j *job.Job)) {
		j := job.New(id, "acc", at(0))
		j.Start(at(0))
		fn(j)
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	mk("failed", func(j *job.Job) { j.Fail("engine down", at(1)) })
	mk("completed", func(j *job.Job) { j.Complete(at(2)) })
	mk("settled", func(j *job.Job) { j.Complete(at(1)); j.AnnounceDue = false })
	mk("late", func(j *job.Job) { j.Fail("x", at(9)) })
	mk("retrying", func(j *job.Job) { j.Retrying(at(3)) })

	got, err := s.GetJob(ctx, "retrying")
	if err != nil {
		t.Fatal(err)
	}
	if got.RetryingSince == nil || !got.RetryingSince.Equal(norm(at(3))) || got.AnnounceDue || got.CleanupDue {
		t.Fatalf("retrying job reads %+v", got)
	}
	owing, err := s.Owing(ctx, at(5))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range owing {
		ids = append(ids, j.ID)
	}
	if !reflect.DeepEqual(ids, []string{"failed", "completed"}) {
		t.Fatalf("owing before 5 min: %v", ids)
	}
	if f := owing[0]; !f.AnnounceDue || !f.CleanupDue || f.Error != "engine down" {
		t.Fatalf("failed job reads %+v", f)
	}
	if c := owing[1]; !c.AnnounceDue || c.CleanupDue {
		t.Fatalf("completed job reads %+v", c)
	}
	if _, err := s.UpdateJob(ctx, "failed", func(j *job.Job) error { j.AnnounceDue = false; return nil }); err != nil {
		t.Fatal(err)
	}
	if owing, _ = s.Owing(ctx, at(5)); len(owing) != 2 || owing[0].ID != "failed" || owing[0].AnnounceDue {
		t.Fatalf("after the announcement the failed job still owes its clean-up: %+v", owing)
	}
	s.UpdateJob(ctx, "failed", func(j *job.Job) error { j.CleanupDue = false; return nil })
	if owing, _ = s.Owing(ctx, at(5)); len(owing) != 1 || owing[0].ID != "completed" {
		t.Fatalf("owing after settling the failed job: %+v", owing)
	}
}

// A job past its retention whose files cannot be deleted (the bucket is
// down) keeps its record for the next sweep.
func TestRetentionDeletesFilesFirst(t *testing.T) {
	s := newStore(t, sqliteBackend)
	for _, id := range []string{"a", "b", "c"} {
		if err := s.CreateJob(ctx, job.New(id, "acc", t0)); err != nil {
			t.Fatal(err)
		}
	}
	var asked []string
	gone, err := s.DeleteJobsBefore(ctx, t0.Add(time.Hour), func(id string) error {
		asked = append(asked, id)
		if id == "b" {
			return errors.New("bucket down")
		}
		return nil
	})
	if err != nil || !reflect.DeepEqual(gone, []string{"a", "c"}) || len(asked) != 3 {
		t.Fatalf("gone %v (asked %v): %v", gone, asked, err)
	}
	if _, err := s.GetJob(ctx, "b"); err != nil {
		t.Fatalf("the job whose files stayed lost its record: %v", err)
	}
	if gone, _ = s.DeleteJobsBefore(ctx, t0.Add(time.Hour), func(string) error { return nil }); !reflect.DeepEqual(gone, []string{"b"}) {
		t.Fatalf("next sweep deleted %v", gone)
	}
}

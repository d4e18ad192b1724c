package sqlstore

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// testJobCatalog pages an account's jobs newest first across several
// pages, with ties on created_at, a status filter and a retention floor.
func testJobCatalog(t *testing.T, b backend) {
	s := newStore(t, b)
	var want []string
	for i := 0; i < 7; i++ {
		// Pairs of jobs share a creation time: the id breaks the tie.
		j := job.New(fmt.Sprintf("job-%d", i), "acc", t0.Add(time.Duration(i/2)*time.Minute))
		if i%3 == 0 {
			j.Fail("x", t0)
		}
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		want = append([]string{j.ID}, want...)
	}
	if err := s.CreateJob(ctx, job.New("other", "acc2", t0)); err != nil {
		t.Fatal(err)
	}
	var got []string
	q := ports.JobQuery{AccountID: "acc", Limit: 3}
	for pages := 0; ; pages++ {
		js, err := s.ListJobs(ctx, q, t0.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range js {
			got = append(got, j.ID)
		}
		if len(js) < 3 {
			if pages != 2 {
				t.Fatalf("%d full pages, want 2", pages)
			}
			break
		}
		last := js[len(js)-1]
		q.Before = &ports.JobKey{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("pages %v, want %v", got, want)
	}
	failed, err := s.ListJobs(ctx, ports.JobQuery{AccountID: "acc", Status: job.Failed, Limit: 10}, t0.Add(-time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != 3 || failed[0].ID != "job-6" || failed[2].ID != "job-0" {
		t.Fatalf("failed jobs %v", failed)
	}
	recent, err := s.ListJobs(ctx, ports.JobQuery{AccountID: "acc", Limit: 10}, t0.Add(2*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if len(recent) != 3 { // job-4, job-5 (minute 2) and job-6 (minute 3)
		t.Fatalf("since minute 2: %d jobs", len(recent))
	}
	if err := s.DeleteJob(ctx, "job-3"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetJob(ctx, "job-3"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("deleted job still read: %v", err)
	}
	if err := s.DeleteJob(ctx, "job-3"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

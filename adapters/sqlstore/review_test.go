package sqlstore

import (
	"reflect"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/review"
)

func TestJobReviewSQLite(t *testing.T)   { testJobReview(t, sqliteBackend) }
func TestJobReviewPostgres(t *testing.T) { testJobReview(t, postgresBackend(t)) }

// A job's review summary (issue 28) survives the round trip; a job not
// translated yet has none.
func testJobReview(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateAccount(ctx, &account.Account{ID: "a1", Name: "a1", PlanName: "free", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateJob(ctx, job.New("j1", "a1", t0)); err != nil {
		t.Fatal(err)
	}
	if j, err := s.GetJob(ctx, "j1"); err != nil || j.Review != nil {
		t.Fatalf("new job: review %v (%v)", j.Review, err)
	}
	want := &review.Summary{Segments: 412, ToCheck: 7, ByKind: map[review.Kind]int{review.Links: 3, review.Numbers: 4},
		Document: []review.Flag{{Kind: review.Pages, Severity: review.Medium, Message: "More pages."}}, SourcePages: 2, Pages: 3}
	if _, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error { j.Review = want; return nil }); err != nil {
		t.Fatal(err)
	}
	if j, err := s.GetJob(ctx, "j1"); err != nil || !reflect.DeepEqual(j.Review, want) {
		t.Fatalf("review %+v (%v), want %+v", j.Review, err, want)
	}
}

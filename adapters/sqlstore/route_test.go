package sqlstore

import (
	"slices"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
)

func TestJobRouteSQLite(t *testing.T)   { testJobRoute(t, sqliteBackend) }
func TestJobRoutePostgres(t *testing.T) { testJobRoute(t, postgresBackend(t)) }

// A job's route (issue 22: every leg of a chain) survives the round trip,
// and a job not translated yet has none.
func testJobRoute(t *testing.T, b backend) {
	s := newStore(t, b)
	if err := s.CreateAccount(ctx, &account.Account{ID: "a1", Name: "a1", PlanName: "free", CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateJob(ctx, job.New("j1", "a1", t0)); err != nil {
		t.Fatal(err)
	}
	if j, err := s.GetJob(ctx, "j1"); err != nil || j.Route != nil {
		t.Fatalf("new job: route %v (%v)", j.Route, err)
	}
	route := []job.Leg{{Source: "en", Target: "es", Engine: "apertium"}, {Source: "es", Target: "fr", Engine: "apertium"}}
	if _, err := s.UpdateJob(ctx, "j1", func(j *job.Job) error { j.Route = route; return nil }); err != nil {
		t.Fatal(err)
	}
	if j, err := s.GetJob(ctx, "j1"); err != nil || !slices.Equal(j.Route, route) {
		t.Fatalf("route %v (%v), want %v", j.Route, err, route)
	}
}

package sqlstore

import (
	"errors"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

func TestUsersSQLite(t *testing.T)   { testUsers(t, sqliteBackend) }
func TestUsersPostgres(t *testing.T) { testUsers(t, postgresBackend(t)) }

// testUsers covers users, sessions, named keys and the job listing of the
// dashboard on one backend.
func testUsers(t *testing.T, b backend) {
	s := newStore(t, b)
	for _, id := range []string{"a1", "a2"} {
		if err := s.CreateAccount(ctx, &account.Account{ID: id, Name: id, PlanName: "free", CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	u := &account.User{ID: "u1", AccountID: "a1", Email: "ana@example.com", PasswordHash: "$argon2id$x", CreatedAt: t0}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	dup := *u
	dup.ID = "u2"
	if err := s.CreateUser(ctx, &dup); !errors.Is(err, ports.ErrConflict) {
		t.Fatalf("same address twice: %v, want ErrConflict", err)
	}
	got, err := s.UserByEmail(ctx, "ana@example.com")
	if err != nil || got.ID != "u1" || got.AccountID != "a1" || got.Disabled || !got.CreatedAt.Equal(norm(t0)) {
		t.Fatalf("by email: %+v %v", got, err)
	}
	if _, err := s.GetUser(ctx, "nobody"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
	if us, err := s.UsersOf(ctx, "a2"); err != nil || len(us) != 0 {
		t.Fatalf("users of a2: %v %v", us, err)
	}

	sess := &account.Session{TokenHash: "h1", UserID: "u1", CSRF: "c1", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}
	if err := s.CreateSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	old := &account.Session{TokenHash: "h0", UserID: "u1", CSRF: "c0", CreatedAt: t0.Add(-2 * time.Hour), ExpiresAt: t0.Add(-time.Hour)}
	if err := s.CreateSession(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteSessionsBefore(ctx, t0); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByHash(ctx, "h0"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("expired session kept: %v", err)
	}
	gs, err := s.SessionByHash(ctx, "h1")
	if err != nil || gs.CSRF != "c1" || !gs.ExpiresAt.Equal(norm(t0.Add(time.Hour))) {
		t.Fatalf("session: %+v %v", gs, err)
	}
	// A new password ends every session of the user but the one kept.
	for _, h := range []string{"h2", "h3"} {
		if err := s.CreateSession(ctx, &account.Session{TokenHash: h, UserID: "u1", CSRF: "c", CreatedAt: t0, ExpiresAt: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetPassword(ctx, "u1", "$argon2id$new", "h1"); err != nil {
		t.Fatal(err)
	}
	for h, kept := range map[string]bool{"h1": true, "h2": false, "h3": false} {
		if _, err := s.SessionByHash(ctx, h); (err == nil) != kept {
			t.Errorf("session %s after a password change: %v, kept %v", h, err, kept)
		}
	}
	if got, _ := s.GetUser(ctx, "u1"); got.PasswordHash != "$argon2id$new" {
		t.Fatalf("password hash %q", got.PasswordHash)
	}
	if err := s.SetPassword(ctx, "nobody", "$argon2id$x", ""); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("unknown user: %v", err)
	}
	if err := s.SetUserDisabled(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SessionByHash(ctx, "h1"); !errors.Is(err, ports.ErrNotFound) {
		t.Fatalf("disabling kept the session: %v", err)
	}
	if got, _ := s.GetUser(ctx, "u1"); !got.Disabled {
		t.Fatal("user not disabled")
	}

	_, k, _ := account.NewKey("k1", "a1", t0)
	if err := s.CreateNamedKey(ctx, k, "CI pipeline"); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchKey(ctx, "k1", t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.TouchKey(ctx, "k1", t0); err != nil { // older: ignored
		t.Fatal(err)
	}
	infos, err := s.KeyInfos(ctx, "a1")
	if err != nil || len(infos) != 1 || infos[0].Name != "CI pipeline" || infos[0].LastUsedAt == nil || !infos[0].LastUsedAt.Equal(norm(t0.Add(time.Minute))) {
		t.Fatalf("key infos: %+v %v", infos, err)
	}
	if infos, _ := s.KeyInfos(ctx, "a2"); len(infos) != 0 {
		t.Fatalf("a2 sees keys: %+v", infos)
	}

	for i, id := range []string{"j1", "j2", "j3"} {
		if err := s.CreateJob(ctx, fullJob(id, "a1", t0.Add(time.Duration(i)*time.Minute))); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateJob(ctx, fullJob("j4", "a2", t0)); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j1", 40, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Reserve(ctx, "a1", "2026-03", "j2", 2, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, "j2"); err != nil { // refunded: not charged
		t.Fatal(err)
	}
	day := time.Now().UTC().Format("2006-01-02")
	if got, err := s.DailyUsage(ctx, "a1", "2026-03"); err != nil || len(got) != 1 || got[day] != 40 {
		t.Fatalf("daily usage: %v %v", got, err)
	}
	jobs, err := s.ListJobs(ctx, ports.JobQuery{AccountID: "a1", Limit: 10}, t0.Add(time.Minute))
	if err != nil || len(jobs) != 2 || jobs[0].ID != "j3" || jobs[1].ID != "j2" {
		t.Fatalf("jobs of a1 since t0+1m: %v %v", jobs, err)
	}
}

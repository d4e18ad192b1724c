package service

import (
	"context"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
)

// A password change needs the current password and a valid new one, ends
// the user's other sessions but not the one making it, and is throttled.
func TestChangePassword(t *testing.T) {
	ctx := context.Background()
	m := &memUsers{accounts: map[string]*account.Account{"a1": {ID: "a1", PlanName: "free"}},
		users: map[string]*account.User{}, sessions: map[string]*account.Session{}}
	n := 0
	s := &Sessions{Accounts: m, Users: m, Limiter: &countLimiter{n: map[string]int{}},
		Clock: &setClock{t: time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)}}
	adm := &Admin{Accounts: m, Users: m, Clock: s.Clock, NewID: func() string { n++; return "id" + string(rune('0'+n)) }}
	const old, next = "the old long password", "the new long password"
	if _, _, err := adm.CreateUser(ctx, "a1", "eve@example.com", old); err != nil {
		t.Fatal(err)
	}
	here, err := s.SignIn(ctx, "eve@example.com", old, "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	elsewhere, err := s.SignIn(ctx, "eve@example.com", old, "10.0.0.2")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := s.Session(ctx, here.Token)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ current, next string }{{"not it at all", next}, {old, "short"}, {old, old}} {
		if err := s.ChangePassword(ctx, sc, tc.current, tc.next); kindOf(err) != KindUnprocessable {
			t.Errorf("change %q → %q: %v, want unprocessable", tc.current, tc.next, err)
		}
	}
	if _, err := s.Session(ctx, elsewhere.Token); err != nil {
		t.Fatalf("a refused change ended a session: %v", err)
	}
	if err := s.ChangePassword(ctx, sc, old, next); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, elsewhere.Token); kindOf(err) != KindUnauthenticated {
		t.Errorf("the other session after the change: %v, want signed out", err)
	}
	if _, err := s.Session(ctx, here.Token); err != nil {
		t.Errorf("the changing session after the change: %v", err)
	}
	if _, err := s.SignIn(ctx, "eve@example.com", old, "10.0.0.3"); kindOf(err) != KindUnauthenticated {
		t.Errorf("old password after the change: %v", err)
	}
	if err := s.ChangePassword(ctx, sc, next, "a third long password"); err != nil {
		t.Errorf("fifth change in a minute: %v", err)
	}
	if err := s.ChangePassword(ctx, sc, "a third long password", old); kindOf(err) != KindRateLimited {
		t.Errorf("sixth change in a minute: %v, want rate limited", err)
	}
}

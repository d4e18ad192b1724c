package service

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// memUsers is an in-memory UserStore and AccountStore for sign-in tests.
type memUsers struct {
	ports.AccountStore // unused methods panic
	mu                 sync.Mutex
	accounts           map[string]*account.Account
	users              map[string]*account.User
	sessions           map[string]*account.Session
}

func (m *memUsers) GetAccount(_ context.Context, id string) (*account.Account, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	a, ok := m.accounts[id]
	if !ok {
		return nil, ports.ErrNotFound
	}
	c := *a
	return &c, nil
}
func (m *memUsers) CreateUser(_ context.Context, u *account.User) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, o := range m.users {
		if o.Email == u.Email {
			return ports.ErrConflict
		}
	}
	m.users[u.ID] = u
	return nil
}
func (m *memUsers) GetUser(_ context.Context, id string) (*account.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u, ok := m.users[id]; ok {
		c := *u
		return &c, nil
	}
	return nil, ports.ErrNotFound
}
func (m *memUsers) UserByEmail(_ context.Context, e string) (*account.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.users {
		if u.Email == e {
			c := *u
			return &c, nil
		}
	}
	return nil, ports.ErrNotFound
}
func (m *memUsers) UsersOf(context.Context, string) ([]*account.User, error) { return nil, nil }
func (m *memUsers) SetUserDisabled(_ context.Context, id string, d bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users[id].Disabled = d
	return nil
}
func (m *memUsers) SetPassword(_ context.Context, id, hash, keep string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.users[id].PasswordHash = hash
	for h, s := range m.sessions {
		if s.UserID == id && h != keep {
			delete(m.sessions, h)
		}
	}
	return nil
}
func (m *memUsers) CreateSession(_ context.Context, s *account.Session) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sessions[s.TokenHash] = s
	return nil
}
func (m *memUsers) SessionByHash(_ context.Context, h string) (*account.Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s, ok := m.sessions[h]; ok {
		return s, nil
	}
	return nil, ports.ErrNotFound
}
func (m *memUsers) DeleteSession(_ context.Context, h string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, h)
	return nil
}
func (m *memUsers) DeleteSessionsBefore(context.Context, time.Time) error { return nil }

// countLimiter allows n requests per key, ever.
type countLimiter struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *countLimiter) Allow(_ context.Context, key string, limit int) (bool, time.Duration, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n[key]++
	return l.n[key] <= limit, 30 * time.Second, nil
}

type setClock struct{ t time.Time }

func (c *setClock) Now() time.Time { return c.t }

func TestSignInSessionsAndRefusals(t *testing.T) {
	ctx := context.Background()
	m := &memUsers{accounts: map[string]*account.Account{"a1": {ID: "a1", PlanName: "free"}},
		users: map[string]*account.User{}, sessions: map[string]*account.Session{}}
	clock := &setClock{t: time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC)}
	n := 0
	s := &Sessions{Accounts: m, Users: m, Limiter: &countLimiter{n: map[string]int{}}, Clock: clock}
	adm := &Admin{Accounts: m, Users: m, Clock: clock, NewID: func() string { n++; return "id" + string(rune('0'+n)) }}

	u, pw, err := adm.CreateUser(ctx, "a1", " Eve@Example.COM ", "")
	if err != nil || u.Email != "eve@example.com" || len(pw) < account.MinPasswordLength {
		t.Fatalf("create: %+v %q %v", u, pw, err)
	}
	if _, _, err := adm.CreateUser(ctx, "a1", "eve@example.com", "another password"); kindOf(err) != KindUnprocessable {
		t.Fatalf("same address twice: %v", err)
	}
	if _, _, err := adm.CreateUser(ctx, "nope", "x@example.com", ""); kindOf(err) != KindNotFound {
		t.Fatalf("unknown account: %v", err)
	}

	if _, err := s.SignIn(ctx, "eve@example.com", "wrong password", "10.0.0.1"); kindOf(err) != KindUnauthenticated {
		t.Fatalf("wrong password: %v", err)
	}
	if _, err := s.SignIn(ctx, "nobody@example.com", pw, "10.0.0.1"); kindOf(err) != KindUnauthenticated || err.Error() != errWrongPassword {
		t.Fatalf("unknown user must read like a wrong password: %v", err)
	}
	in, err := s.SignIn(ctx, "EVE@example.com", pw, "10.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	if in.Session.TokenHash == in.Token || in.Session.CSRF == "" || !in.Session.ExpiresAt.Equal(clock.t.Add(SessionLifetime)) {
		t.Fatalf("session: %+v", in.Session)
	}
	sc, err := s.Session(ctx, in.Token)
	if err != nil || sc.Account.ID != "a1" || sc.User.ID != u.ID {
		t.Fatalf("session caller: %+v %v", sc, err)
	}

	// Suspension and disabling refuse an open session at once.
	m.accounts["a1"].Suspended = true
	if _, err := s.Session(ctx, in.Token); kindOf(err) != KindForbidden {
		t.Fatalf("suspended account, open session: %v", err)
	}
	if _, err := s.SignIn(ctx, "eve@example.com", pw, "10.0.0.2"); kindOf(err) != KindForbidden {
		t.Fatalf("suspended account sign-in: %v", err)
	}
	m.accounts["a1"].Suspended = false
	if _, err := adm.DisableUser(ctx, "a1", "eve@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, in.Token); kindOf(err) != KindForbidden {
		t.Fatalf("disabled user, open session: %v", err)
	}
	m.users[u.ID].Disabled = false

	// Expiry, and sign-out.
	in2, err := s.SignIn(ctx, "eve@example.com", pw, "10.0.0.3")
	if err != nil {
		t.Fatal(err)
	}
	clock.t = clock.t.Add(SessionLifetime)
	if _, err := s.Session(ctx, in2.Token); kindOf(err) != KindUnauthenticated || err.Error() != "your session expired: sign in again" {
		t.Fatalf("expired session: %v", err)
	}
	in3, err := s.SignIn(ctx, "eve@example.com", pw, "10.0.0.3")
	if err != nil {
		t.Fatalf("sign-in number 5 of the user: %v", err)
	}
	if err := s.SignOut(ctx, in3.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Session(ctx, in3.Token); kindOf(err) != KindUnauthenticated {
		t.Fatalf("signed-out session: %v", err)
	}

	// The sixth attempt for one user is throttled, right password or not.
	if _, err := s.SignIn(ctx, "eve@example.com", pw, "10.0.0.4"); kindOf(err) != KindRateLimited {
		t.Fatalf("sixth attempt: %v", err)
	}
	var se *Error
	if _, err := s.SignIn(ctx, "eve@example.com", pw, "10.0.0.4"); !errors.As(err, &se) || se.RetryAfter != 30*time.Second {
		t.Fatalf("throttle wait: %v", err)
	}
}

package service

import (
	"context"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Sessions implements the dashboard's sign-in: people of an account sign in
// with an e-mail address and password and get a session, which the
// dashboard's requests carry in a cookie.
type Sessions struct {
	Users    ports.UserStore // nil: sign-in unavailable
	Accounts ports.AccountStore
	Limiter  ports.RateLimiter // throttles sign-in attempts
	Clock    ports.Clock
}

// Sign-in limits: attempts per minute for one address (e-mail) and for one
// client network address. Every attempt counts, right or wrong.
const (
	SignInPerUser    = 5
	SignInPerAddress = 30
	// SessionLifetime is how long a dashboard session lasts from sign-in.
	SessionLifetime = 12 * time.Hour
)

// SignedIn is a new session: Token goes in the cookie and is never stored.
type SignedIn struct {
	Token   string
	Session *account.Session
	User    *account.User
}

// SessionCaller is the caller behind a dashboard session.
type SessionCaller struct {
	*Caller
	User    *account.User
	Session *account.Session
}

var errWrongPassword = "wrong e-mail address or password"

// usable refuses a disabled user or a suspended account.
func (s *Sessions) usable(ctx context.Context, u *account.User) error {
	if u.Disabled {
		return fail(KindForbidden, "this user has been disabled: ask your account's administrator")
	}
	a, err := s.Accounts.GetAccount(ctx, u.AccountID)
	if err != nil {
		return err
	}
	if a.Suspended {
		return fail(KindForbidden, "this account is suspended: contact support to restore it")
	}
	return nil
}

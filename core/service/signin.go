package service

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

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

// SignIn checks an address and password and opens a session. Attempts are
// throttled per address and per client (remote address); a disabled user or
// suspended account is refused with its reason, after the password is
// checked, so the reason is not shown to someone who does not know it.
func (s *Service) SignIn(ctx context.Context, email, password, remote string) (*SignedIn, error) {
	if s.Users == nil {
		return nil, fail(KindUnavailable, "sign-in is not available on this server")
	}
	email = account.NormalizeEmail(email)
	for _, lim := range []struct {
		key string
		n   int
	}{{"signin-addr:" + remote, SignInPerAddress}, {"signin-user:" + email, SignInPerUser}} {
		ok, retry, err := s.Limiter.Allow(ctx, lim.key, lim.n)
		if err != nil {
			return nil, err
		}
		if !ok {
			secs := max(int(math.Ceil(retry.Seconds())), 1)
			return nil, &Error{Kind: KindRateLimited, RetryAfter: time.Duration(secs) * time.Second,
				Message: "too many sign-in attempts: wait a minute and try again"}
		}
	}
	u, err := s.Users.UserByEmail(ctx, email)
	if errors.Is(err, ports.ErrNotFound) {
		account.BurnPasswordCheck(password)
		return nil, fail(KindUnauthenticated, "%s", errWrongPassword)
	}
	if err != nil {
		return nil, err
	}
	ok, err := account.CheckPassword(u.PasswordHash, password)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fail(KindUnauthenticated, "%s", errWrongPassword)
	}
	if err := s.usable(ctx, u); err != nil {
		return nil, err
	}
	tok, err := account.RandomToken(32)
	if err != nil {
		return nil, err
	}
	csrf, err := account.RandomToken(32)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	sess := &account.Session{TokenHash: account.HashToken(tok), UserID: u.ID, CSRF: csrf, CreatedAt: now, ExpiresAt: now.Add(SessionLifetime)}
	if err := s.Users.CreateSession(ctx, sess); err != nil {
		return nil, err
	}
	_ = s.Users.DeleteSessionsBefore(ctx, now) // tidy expired ones
	return &SignedIn{Token: tok, Session: sess, User: u}, nil
}

// usable refuses a disabled user or a suspended account.
func (s *Service) usable(ctx context.Context, u *account.User) error {
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

// Session resolves a session cookie to its caller. An unknown or expired
// session is unauthenticated; a user disabled or an account suspended
// since sign-in is refused at once.
func (s *Service) Session(ctx context.Context, token string) (*SessionCaller, error) {
	if s.Users == nil || token == "" {
		return nil, fail(KindUnauthenticated, "sign in to continue")
	}
	h := account.HashToken(token)
	sess, err := s.Users.SessionByHash(ctx, h)
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindUnauthenticated, "sign in to continue")
	}
	if err != nil {
		return nil, err
	}
	if !s.Clock.Now().Before(sess.ExpiresAt) {
		_ = s.Users.DeleteSession(ctx, h)
		return nil, fail(KindUnauthenticated, "your session expired: sign in again")
	}
	u, err := s.Users.GetUser(ctx, sess.UserID)
	if err != nil {
		return nil, err
	}
	if u.Disabled {
		_ = s.Users.DeleteSession(ctx, h)
		return nil, fail(KindForbidden, "this user has been disabled: ask your account's administrator")
	}
	a, err := s.Accounts.GetAccount(ctx, u.AccountID)
	if err != nil {
		return nil, err
	}
	if a.Suspended {
		return nil, fail(KindForbidden, "this account is suspended: contact support to restore it")
	}
	return &SessionCaller{Caller: &Caller{Account: a}, User: u, Session: sess}, nil
}

// SignOut ends a session; an unknown one is already ended.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if s.Users == nil || token == "" {
		return nil
	}
	return s.Users.DeleteSession(ctx, account.HashToken(token))
}

package service

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// SignIn checks an address and password and opens a session. Attempts are
// throttled per address and per client (remote address); a disabled user or
// suspended account is refused with its reason, after the password is
// checked, so the reason is not shown to someone who does not know it.
func (s *Sessions) SignIn(ctx context.Context, email, password, remote string) (*SignedIn, error) {
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

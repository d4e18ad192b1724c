package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Session resolves a session cookie to its caller. An unknown or expired
// session is unauthenticated; a user disabled or an account suspended
// since sign-in is refused at once.
func (s *Sessions) Session(ctx context.Context, token string) (*SessionCaller, error) {
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

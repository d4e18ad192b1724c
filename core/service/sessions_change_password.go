package service

import (
	"context"
	"math"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
)

// PasswordChangesPerMinute bounds the attempts one user makes to change a
// password, so a stolen session cannot be used to guess the current one.
const PasswordChangesPerMinute = 5

// ChangePassword sets a new password for the signed-in user, who proves
// the current one, and ends every other session of the user: a browser
// left signed in elsewhere (or by someone who learnt the old password) is
// signed out. The session making the change stays.
func (s *Sessions) ChangePassword(ctx context.Context, sc *SessionCaller, current, next string) error {
	ok, retry, err := s.Limiter.Allow(ctx, "password:"+sc.User.ID, PasswordChangesPerMinute)
	if err != nil {
		return err
	}
	if !ok {
		secs := max(int(math.Ceil(retry.Seconds())), 1)
		return &Error{Kind: KindRateLimited, RetryAfter: time.Duration(secs) * time.Second,
			Message: "too many password changes: wait a minute and try again"}
	}
	u, err := s.Users.GetUser(ctx, sc.User.ID) // the stored password, not the one at sign-in
	if err != nil {
		return err
	}
	right, err := account.CheckPassword(u.PasswordHash, current)
	if err != nil {
		return err
	}
	if !right {
		return fail(KindUnprocessable, "current password: this is not your current password")
	}
	if next == current {
		return fail(KindUnprocessable, "new password: choose one that differs from the current password")
	}
	hash, err := account.HashPassword(next)
	if err != nil {
		return fail(KindUnprocessable, "new %s", err.Error())
	}
	return s.Users.SetPassword(ctx, u.ID, hash, sc.Session.TokenHash)
}

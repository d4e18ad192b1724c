package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// DisableUser stops a user of the account from signing in and ends its
// sessions. The user is named by id or e-mail address.
func (s *Admin) DisableUser(ctx context.Context, accountID, user string) (*account.User, error) {
	u, err := s.Users.GetUser(ctx, user)
	if errors.Is(err, ports.ErrNotFound) {
		u, err = s.Users.UserByEmail(ctx, account.NormalizeEmail(user))
	}
	if errors.Is(err, ports.ErrNotFound) || (err == nil && u.AccountID != accountID) {
		return nil, fail(KindNotFound, "user %s not found in account %s", user, accountID)
	}
	if err != nil {
		return nil, err
	}
	if err := s.Users.SetUserDisabled(ctx, u.ID, true); err != nil {
		return nil, err
	}
	u.Disabled = true
	return u, nil
}

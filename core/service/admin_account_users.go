package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// AccountUsers lists an account's users.
func (s *Admin) AccountUsers(ctx context.Context, accountID string) ([]*account.User, error) {
	if _, err := s.Accounts.GetAccount(ctx, accountID); err != nil {
		if errors.Is(err, ports.ErrNotFound) {
			return nil, fail(KindNotFound, "account %s not found", accountID)
		}
		return nil, err
	}
	return s.Users.UsersOf(ctx, accountID)
}

package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// CreateUser adds a person to an account. With password empty a random
// one is made; the plain password is returned once and never stored.
func (s *Admin) CreateUser(ctx context.Context, accountID, email, password string) (*account.User, string, error) {
	email = account.NormalizeEmail(email)
	if !account.ValidEmail(email) {
		return nil, "", fail(KindUnprocessable, "email: not an e-mail address")
	}
	if _, err := s.Accounts.GetAccount(ctx, accountID); err != nil {
		if errors.Is(err, ports.ErrNotFound) {
			return nil, "", fail(KindNotFound, "account %s not found", accountID)
		}
		return nil, "", err
	}
	if password == "" {
		var err error
		if password, err = account.RandomToken(15); err != nil {
			return nil, "", err
		}
	}
	hash, err := account.HashPassword(password)
	if err != nil {
		return nil, "", fail(KindUnprocessable, "%s", err.Error())
	}
	u := &account.User{ID: s.NewID(), AccountID: accountID, Email: email, PasswordHash: hash, CreatedAt: s.Clock.Now()}
	if err := s.Users.CreateUser(ctx, u); err != nil {
		if errors.Is(err, ports.ErrConflict) {
			return nil, "", fail(KindUnprocessable, "email: %s already has a user", email)
		}
		return nil, "", err
	}
	return u, password, nil
}

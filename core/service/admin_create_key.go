package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
)

// CreateKey issues an API key for an existing account. The plain key is
// returned here once; only its hash is stored.
func (s *Admin) CreateKey(ctx context.Context, accountID string) (plain string, k account.Key, err error) {
	if _, err := s.Accounts.GetAccount(ctx, accountID); err != nil {
		return "", account.Key{}, err
	}
	plain, k, err = account.NewKey(s.NewID(), accountID, s.Clock.Now())
	if err != nil {
		return "", account.Key{}, err
	}
	if err := s.Accounts.CreateKey(ctx, k); err != nil {
		return "", account.Key{}, err
	}
	return plain, k, nil
}

package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
)

// AccountKeys lists the caller's keys, oldest first, revoked ones too.
func (s *Accounts) AccountKeys(ctx context.Context, c *Caller) ([]account.KeyInfo, error) {
	return s.KeyCatalog.KeyInfos(ctx, c.Account.ID)
}

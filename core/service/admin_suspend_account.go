package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
)

// SuspendAccount suspends an account (its keys are refused) or, with
// suspended false, resumes it.
func (s *Admin) SuspendAccount(ctx context.Context, id string, suspended bool) (*account.Account, error) {
	return s.Accounts.UpdateAccount(ctx, id, func(acc *account.Account) error {
		acc.Suspended = suspended
		return nil
	})
}

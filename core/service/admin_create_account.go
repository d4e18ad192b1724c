package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// CreateAccount opens an account on a plan.
func (s *Admin) CreateAccount(ctx context.Context, name, plan string) (*account.Account, error) {
	p, err := quota.LookupPlan(plan)
	if err != nil {
		return nil, &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
	}
	acc := &account.Account{ID: s.NewID(), Name: name, PlanName: p.Name, CreatedAt: s.Clock.Now()}
	if err := s.Accounts.CreateAccount(ctx, acc); err != nil {
		return nil, err
	}
	return acc, nil
}

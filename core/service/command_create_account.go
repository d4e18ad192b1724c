package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// CreateAccount opens an account on a plan.
func (a *Admin) CreateAccount(ctx context.Context, name, plan string) (*account.Account, error) {
	p, err := quota.LookupPlan(plan)
	if err != nil {
		return nil, &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
	}
	acc := &account.Account{ID: a.NewID(), Name: name, PlanName: p.Name, CreatedAt: a.Clock.Now()}
	if err := a.Accounts.CreateAccount(ctx, acc); err != nil {
		return nil, err
	}
	return acc, nil
}

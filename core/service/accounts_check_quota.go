package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// CheckQuota refuses a submission when the period's words are used up.
func (s *Accounts) CheckQuota(ctx context.Context, c *Caller) error {
	return checkQuota(ctx, s.Quota, s.Clock, c)
}

// checkQuota is CheckQuota on the ports a use case holds (a submission
// checks it too).
func checkQuota(ctx context.Context, q quota.Store, clock ports.Clock, c *Caller) error {
	err := quota.Check(ctx, q, c.Account.ID, c.Account.Limits().LimitWords, clock.Now())
	var ex *quota.Exhausted
	if errors.As(err, &ex) {
		return &Error{Kind: KindQuota, Message: ex.Error(), Err: err}
	}
	return err
}

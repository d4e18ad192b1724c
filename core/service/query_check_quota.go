package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/quota"
)

// CheckQuota refuses a submission when the period's words are used up.
func (s *Service) CheckQuota(ctx context.Context, c *Caller) error {
	err := quota.Check(ctx, s.Quota, c.Account.ID, c.Account.Limits().LimitWords, s.Clock.Now())
	var ex *quota.Exhausted
	if errors.As(err, &ex) {
		return &Error{Kind: KindQuota, Message: ex.Error(), Err: err}
	}
	return err
}

package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/quota"
)

// UsageSummary is the usage summary of the current billing period.
type UsageSummary struct {
	UsedWords  int64
	LimitWords *int64
	PlanName   string
}

// Usage reads the caller's usage for the current period.
func (s *Accounts) Usage(ctx context.Context, c *Caller) (UsageSummary, error) {
	used, err := s.Quota.Used(ctx, c.Account.ID, quota.Period(s.Clock.Now()))
	if err != nil {
		return UsageSummary{}, err
	}
	p := c.Account.Limits()
	return UsageSummary{UsedWords: used, LimitWords: p.LimitWords, PlanName: p.Name}, nil
}

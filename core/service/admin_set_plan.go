package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// PlanChange is a new plan with its overrides; nil overrides take the
// plan's own limits.
type PlanChange struct {
	Plan              string
	LimitWords        *int64 // 0 or more
	RequestsPerMinute *int   // 1 or more
	// Per-document caps (words, segments), 1 or more.
	MaxDocumentWords    *int64
	MaxDocumentSegments *int64
}

// SetPlan moves an account to a plan and replaces its overrides.
func (s *Admin) SetPlan(ctx context.Context, id string, c PlanChange) (*account.Account, error) {
	p, err := quota.LookupPlan(c.Plan)
	if err != nil {
		return nil, &Error{Kind: KindUnprocessable, Message: err.Error(), Err: err}
	}
	return s.Accounts.UpdateAccount(ctx, id, func(acc *account.Account) error {
		acc.PlanName = p.Name
		acc.LimitWordsOverride, acc.RPMOverride = nil, nil
		acc.MaxDocWordsOverride, acc.MaxDocSegmentsOverride = nil, nil
		for _, o := range []struct {
			v    *int64
			to   **int64
			flag string
		}{{c.MaxDocumentWords, &acc.MaxDocWordsOverride, "--max-document-words"}, {c.MaxDocumentSegments, &acc.MaxDocSegmentsOverride, "--max-document-segments"}} {
			if o.v == nil {
				continue
			}
			if *o.v < 1 {
				return fail(KindUnprocessable, "%s must be 1 or more", o.flag)
			}
			n := *o.v
			*o.to = &n
		}
		if c.LimitWords != nil {
			if *c.LimitWords < 0 {
				return fail(KindUnprocessable, "--limit-words must be 0 or more")
			}
			n := *c.LimitWords
			acc.LimitWordsOverride = &n
		}
		if c.RequestsPerMinute != nil {
			if *c.RequestsPerMinute < 1 {
				return fail(KindUnprocessable, "--requests-per-minute must be 1 or more")
			}
			n := *c.RequestsPerMinute
			acc.RPMOverride = &n
		}
		return nil
	})
}

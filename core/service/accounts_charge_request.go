package service

import (
	"context"
	"math"
	"strconv"
	"time"
)

// ChargeRequest counts one request against the caller's per-minute limit,
// as Authenticate does for API keys. The dashboard charges submissions
// (not page views or polling), so a browser and a script share one limit.
func (s *Accounts) ChargeRequest(ctx context.Context, c *Caller) error {
	lim := c.Account.Limits()
	ok, retry, err := s.Limiter.Allow(ctx, "rpm:"+c.Account.ID, lim.RequestsPerMinute)
	if err != nil {
		return err
	}
	if !ok {
		secs := max(int(math.Ceil(retry.Seconds())), 1)
		return &Error{Kind: KindRateLimited, RetryAfter: time.Duration(secs) * time.Second,
			Message: "rate limit exceeded: " + strconv.Itoa(lim.RequestsPerMinute) + " requests per minute on the " + lim.Name + " plan"}
	}
	return nil
}

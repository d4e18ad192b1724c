package service

import (
	"context"
	"errors"
	"math"
	"strconv"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Caller is an authenticated client.
type Caller struct {
	Account *account.Account
	KeyID   string
}

// Authenticate resolves an API key and charges one request against the
// account's per-minute limit.
func (s *Service) Authenticate(ctx context.Context, apiKey string) (*Caller, error) {
	if apiKey == "" {
		return nil, fail(KindUnauthenticated, "missing API key: send it in the X-API-Key header")
	}
	if !account.WellFormed(apiKey) {
		return nil, fail(KindUnauthenticated, "invalid API key")
	}
	k, err := s.Accounts.KeyByHash(ctx, account.HashKey(apiKey))
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindUnauthenticated, "invalid API key")
	}
	if err != nil {
		return nil, err
	}
	if k.RevokedAt != nil {
		return nil, fail(KindForbidden, "this API key has been revoked")
	}
	a, err := s.Accounts.GetAccount(ctx, k.AccountID)
	if err != nil {
		return nil, err
	}
	if a.Suspended {
		return nil, fail(KindForbidden, "this account is suspended")
	}
	s.touchKey(ctx, k.ID)
	ok, retry, err := s.Limiter.Allow(ctx, "rpm:"+a.ID, a.Limits().RequestsPerMinute)
	if err != nil {
		return nil, err
	}
	if !ok {
		secs := int(math.Ceil(retry.Seconds()))
		if secs < 1 {
			secs = 1
		}
		return nil, &Error{Kind: KindRateLimited, RetryAfter: time.Duration(secs) * time.Second,
			Message: "rate limit exceeded: " + strconv.Itoa(a.Limits().RequestsPerMinute) + " requests per minute on the " + a.Limits().Name + " plan"}
	}
	return &Caller{Account: a, KeyID: k.ID}, nil
}

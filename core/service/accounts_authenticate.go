package service

import (
	"context"
	"errors"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Authenticate resolves an API key and charges one request against the
// account's per-minute limit.
func (s *Accounts) Authenticate(ctx context.Context, apiKey string) (*Caller, error) {
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

// keyTouched is when this process last recorded each key's use, so a
// busy key costs one write a minute, not one per request.
var keyTouched sync.Map // key id → time.Time

func (s *Accounts) touchKey(ctx context.Context, keyID string) {
	if s.KeyCatalog == nil {
		return
	}
	now := s.Clock.Now()
	if t, ok := keyTouched.Load(keyID); ok && now.Sub(t.(time.Time)) < time.Minute {
		return
	}
	keyTouched.Store(keyID, now)
	_ = s.KeyCatalog.TouchKey(ctx, keyID, now) // last use is advice; never fail a request for it
}

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

// Config holds the limits of the service.
type Config struct {
	MaxUpload    int64         // bytes; 50 MB
	DownloadTTL  time.Duration // output downloadable this long after completion
	JobRetention time.Duration // job records kept this long after creation
	// AllowPrivateURLs lets URL fetches and webhooks reach loopback and
	// private addresses over plain http, for tests and local development.
	AllowPrivateURLs bool
}

// DefaultConfig is the contract's limits.
var DefaultConfig = Config{MaxUpload: 50 << 20, DownloadTTL: 10 * time.Minute, JobRetention: 24 * time.Hour}

// Service implements the client use cases over the ports.
type Service struct {
	Config   Config
	Jobs     ports.JobStore
	Accounts ports.AccountStore
	Quota    ports.UsageStore
	Webhooks ports.WebhookStore
	Blobs    ports.BlobStore
	Bus      ports.EventBus
	Limiter  ports.RateLimiter
	Engines  ports.EngineRegistry
	Layout   ports.RTLLayout  // nil: no RTL estimate
	Fetcher  ports.URLFetcher // nil: translate-url unavailable
	Clock    ports.Clock
	NewID    func() string
	// Dashboard: people, sessions, named keys and job listings; nil where
	// the dashboard is not served.
	Users      ports.UserStore
	KeyCatalog ports.KeyCatalog
	JobList    ports.JobLister
	Pages      ports.PageRenderer // nil: no previews
	History    ports.UsageHistory // nil: no words-per-day chart
}

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

// UsageSummary is the usage summary of the current billing period.
type UsageSummary struct {
	UsedWords  int64
	LimitWords *int64
	PlanName   string
}

// Usage reads the caller's usage for the current period.
func (s *Service) Usage(ctx context.Context, c *Caller) (UsageSummary, error) {
	used, err := s.Quota.Used(ctx, c.Account.ID, account.Period(s.Clock.Now()))
	if err != nil {
		return UsageSummary{}, err
	}
	p := c.Account.Limits()
	return UsageSummary{UsedWords: used, LimitWords: p.LimitWords, PlanName: p.Name}, nil
}

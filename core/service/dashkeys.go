package service

import (
	"context"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// CreateNamedKey issues an API key for the caller's account with a display
// name. The plain key is returned here once; only its hash is kept. It
// works on the API at once.
func (s *Service) CreateNamedKey(ctx context.Context, c *Caller, name string) (string, *account.KeyInfo, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", nil, fail(KindUnprocessable, "name: give the key a name, e.g. the system that will use it")
	}
	if len([]rune(name)) > 80 {
		return "", nil, fail(KindUnprocessable, "name: at most 80 characters")
	}
	plain, k, err := account.NewKey(s.NewID(), c.Account.ID, s.Clock.Now())
	if err != nil {
		return "", nil, err
	}
	if err := s.KeyCatalog.CreateNamedKey(ctx, k, name); err != nil {
		return "", nil, err
	}
	return plain, &account.KeyInfo{Key: k, Name: name}, nil
}

// AccountKeys lists the caller's keys, oldest first, revoked ones too.
func (s *Service) AccountKeys(ctx context.Context, c *Caller) ([]account.KeyInfo, error) {
	return s.KeyCatalog.KeyInfos(ctx, c.Account.ID)
}

// RevokeAccountKey revokes one of the caller's keys; another account's
// key is not found. A revoked key gets 403 on the API.
func (s *Service) RevokeAccountKey(ctx context.Context, c *Caller, keyID string) error {
	keys, err := s.KeyCatalog.KeyInfos(ctx, c.Account.ID)
	if err != nil {
		return err
	}
	for _, k := range keys {
		if k.ID == keyID {
			return s.Accounts.RevokeKey(ctx, keyID, s.Clock.Now())
		}
	}
	return fail(KindNotFound, "key not found")
}

// keyTouched is when this process last recorded each key's use, so a
// busy key costs one write a minute, not one per request.
var keyTouched sync.Map // key id → time.Time

func (s *Service) touchKey(ctx context.Context, keyID string) {
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

// TargetsBySource maps each source language (by name, "auto" for
// detection) to the target names the enabled engines can reach from it, so
// a form offers only pairs that will be accepted. It is LanguagePairs
// grouped by source.
func (s *Service) TargetsBySource(ctx context.Context) (map[string][]string, error) {
	pairs, err := s.LanguagePairs(ctx)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	auto := map[string]bool{}
	for _, p := range pairs {
		out[p.Source] = append(out[p.Source], p.Target)
		if !auto[p.Target] {
			auto[p.Target] = true
			out["auto"] = append(out["auto"], p.Target)
		}
	}
	return out, nil
}

// DayWords is the words charged on one day.
type DayWords struct {
	Day   time.Time
	Words int64
}

// UsageByDay lists every day of the caller's current period up to today
// with the words charged that day.
func (s *Service) UsageByDay(ctx context.Context, c *Caller) ([]DayWords, error) {
	if s.History == nil {
		return nil, nil
	}
	now := s.Clock.Now().UTC()
	byDay, err := s.History.DailyUsage(ctx, c.Account.ID, quota.Period(now))
	if err != nil {
		return nil, err
	}
	var out []DayWords
	for d := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC); !d.After(now); d = d.AddDate(0, 0, 1) {
		out = append(out, DayWords{Day: d, Words: byDay[d.Format("2006-01-02")]})
	}
	return out, nil
}

// ChargeRequest counts one request against the caller's per-minute limit,
// as Authenticate does for API keys. The dashboard charges submissions
// (not page views or polling), so a browser and a script share one limit.
func (s *Service) ChargeRequest(ctx context.Context, c *Caller) error {
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

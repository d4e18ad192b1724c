package sqlstore

import (
	"context"
	"fmt"
	"time"
)

// window is the rate-limit window: fixed, one minute, aligned to the clock
// so that every process agrees on it.
const window = 60

// Allow counts one request for key in the current one-minute window and
// lets it pass if the count is within limit. The increment is a single
// upsert, atomic across connections and processes. When refused,
// retryAfter is the exact time until the window ends (the HTTP layer
// rounds it up to whole seconds). limit <= 0 means unlimited and counts
// nothing.
func (s *Store) Allow(ctx context.Context, key string, limit int) (bool, time.Duration, error) {
	if limit <= 0 {
		return true, 0, nil
	}
	now := s.clock()
	start := now.Unix() - mod(now.Unix(), window)
	var count int64
	q := `INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
		ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1
		RETURNING count`
	if err := s.w.GetContext(ctx, &count, s.w.Rebind(q), key, start); err != nil {
		return false, 0, fmt.Errorf("sqlstore: rate limit %s: %w", key, err)
	}
	s.pruneRateLimits(ctx, start)
	if count <= int64(limit) {
		return true, 0, nil
	}
	return false, time.Unix(start+window, 0).Sub(now), nil
}

// pruneRateLimits deletes windows older than the previous one, once per
// window per process. A failure is left for the next window to retry.
func (s *Store) pruneRateLimits(ctx context.Context, start int64) {
	last := s.lastPrune.Load()
	if start <= last || !s.lastPrune.CompareAndSwap(last, start) {
		return
	}
	s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM rate_limits WHERE window_start < ?"), start-window)
}

// mod is a non-negative remainder (times before 1970 in tests).
func mod(a, b int64) int64 { return ((a % b) + b) % b }

package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"
)

// window is the span of the sliding rate-limit window.
const window = time.Minute

// Allow lets a request for key pass if fewer than limit requests passed in
// the window (60 s) before now, and records it. It is a sliding log: one
// row per request let through, so any 60 s span holds at most limit passed
// requests, across a minute boundary too (a window fixed to the clock let
// 2*limit through in 2 s). Check and insert run in one transaction,
// serialised per key (SQLite's immediate transaction holds the database
// write lock; PostgreSQL takes a transaction advisory lock on the key), so
// processes sharing the database agree. When refused, retryAfter is the
// exact time until the oldest request that keeps the window full leaves it
// (the HTTP layer rounds it up to whole seconds). limit <= 0 means
// unlimited and records nothing.
func (s *Store) Allow(ctx context.Context, key string, limit int) (bool, time.Duration, error) {
	if limit <= 0 {
		return true, 0, nil
	}
	var (
		ok    bool
		retry time.Duration
		nowUS int64
	)
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		if s.dialect == postgresDialect {
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext($1))`, "rate:"+key); err != nil {
				return err
			}
		}
		// The clock is read holding the lock, so hits are recorded in
		// order and none is later than a request that sees it.
		now := s.clock().Truncate(time.Microsecond)
		nowUS = now.UnixMicro()
		since := nowUS - window.Microseconds() // hits at or before since are out
		// The newest limit hits in the window: if there are limit of them,
		// the window is full until the oldest of these leaves it.
		var hits []int64
		if err := tx.SelectContext(ctx, &hits, tx.Rebind(
			`SELECT at FROM rate_limit_hits WHERE key = ? AND at > ? ORDER BY at DESC LIMIT ?`),
			key, since, limit); err != nil {
			return err
		}
		if len(hits) >= limit {
			leaves := time.UnixMicro(hits[limit-1]).Add(window)
			retry = leaves.Sub(now)
			return nil
		}
		ok = true
		_, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO rate_limit_hits (key, at) VALUES (?, ?)`), key, nowUS)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("sqlstore: rate limit %s: %w", key, err)
	}
	s.pruneRateLimits(ctx, nowUS)
	return ok, retry, nil
}

// pruneRateLimits deletes hits that have left the window, at most once per
// window per process. A failure is left for the next window to retry.
func (s *Store) pruneRateLimits(ctx context.Context, nowUS int64) {
	last := s.lastPrune.Load()
	if nowUS-last < window.Microseconds() || !s.lastPrune.CompareAndSwap(last, nowUS) {
		return
	}
	s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM rate_limit_hits WHERE at <= ?"), nowUS-window.Microseconds())
}

package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"
)

// window is the span of the sliding rate-limit window.
const window = time.Minute

// Allow lets a request for key pass if fewer than limit requests passed in
// the window (60 s) before now, and records it. The requests let through
// are kept per key as a ring of limit slots (rate_limit_slots) and the
// slot to take next, which holds the oldest of the last limit requests
// (rate_limit_rings): the request passes when that slot is empty or its
// request left the window, and takes the slot. So any 60 s span holds at
// most limit passed requests, across a minute boundary too (a window fixed
// to the clock let 2*limit through in 2 s), for one point read and one
// point write per request however large the limit (the log it replaces
// read every request of the window, 18,000 rows at 300 requests a second).
// Check and write run in one transaction, serialised per key (SQLite's
// immediate transaction holds the database write lock; PostgreSQL takes a
// transaction advisory lock on the key), so processes sharing the database
// agree. When refused, retryAfter is the exact time until the oldest
// request that keeps the window full leaves it (the HTTP layer rounds it up
// to whole seconds). limit <= 0 means unlimited and records nothing.
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
		// The clock is read holding the lock, so requests are recorded in
		// order and none is later than a request that sees it.
		now := s.clock().Truncate(time.Microsecond)
		nowUS = now.UnixMicro()
		since := nowUS - window.Microseconds() // requests at or before since are out
		var ring struct {
			Slots int   `db:"slots"`
			Next  int   `db:"next_slot"`
			At    int64 `db:"at"` // of the request in the next slot; 0: empty
		}
		err := tx.GetContext(ctx, &ring, tx.Rebind(`SELECT r.slots, r.next_slot, COALESCE(s.at, 0) AS at
			FROM rate_limit_rings r LEFT JOIN rate_limit_slots s ON s.key = r.key AND s.slot = r.next_slot WHERE r.key = ?`), key)
		if errors.Is(err, sql.ErrNoRows) || err == nil && ring.Slots != limit {
			// A new key, or a new limit: lay the requests still in the
			// window out on a ring of the new size.
			ring.Next, ring.At, err = s.resizeRing(ctx, tx, key, limit, since)
			ring.Slots = limit
		}
		if err != nil {
			return err
		}
		if ring.At > since {
			retry = time.UnixMicro(ring.At).Add(window).Sub(now)
			return nil
		}
		ok = true
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO rate_limit_slots (key, slot, at) VALUES (?, ?, ?)
			ON CONFLICT (key, slot) DO UPDATE SET at = excluded.at`), key, ring.Next, nowUS); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind(`UPDATE rate_limit_rings SET next_slot = ? WHERE key = ?`), (ring.Next+1)%limit, key)
		return err
	})
	if err != nil {
		return false, 0, fmt.Errorf("sqlstore: rate limit %s: %w", key, err)
	}
	s.pruneRateLimits(ctx, nowUS)
	return ok, retry, nil
}

// resizeRing lays key's requests still in the window out on a ring of
// limit slots, the newest limit of them oldest first from slot 0, and
// returns the slot to take next with the request it holds (0: empty).
func (s *Store) resizeRing(ctx context.Context, tx *sqlx.Tx, key string, limit int, since int64) (next int, at int64, err error) {
	var kept []int64
	if err := tx.SelectContext(ctx, &kept, tx.Rebind(`SELECT at FROM rate_limit_slots WHERE key = ? AND at > ? ORDER BY at DESC LIMIT ?`),
		key, since, limit); err != nil {
		return 0, 0, err
	}
	slices.Reverse(kept)
	if _, err := tx.ExecContext(ctx, tx.Rebind(`DELETE FROM rate_limit_slots WHERE key = ?`), key); err != nil {
		return 0, 0, err
	}
	for i, a := range kept {
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO rate_limit_slots (key, slot, at) VALUES (?, ?, ?)`), key, i, a); err != nil {
			return 0, 0, err
		}
	}
	next = len(kept) % limit
	if len(kept) == limit {
		at = kept[0]
	}
	_, err = tx.ExecContext(ctx, tx.Rebind(`INSERT INTO rate_limit_rings (key, slots, next_slot) VALUES (?, ?, ?)
		ON CONFLICT (key) DO UPDATE SET slots = excluded.slots, next_slot = excluded.next_slot`), key, limit, next)
	return next, at, err
}

// pruneRateLimits deletes the slots of requests that have left the window,
// at most once per window per process (an emptied slot counts as free).
// A failure is left for the next window to retry.
func (s *Store) pruneRateLimits(ctx context.Context, nowUS int64) {
	last := s.lastPrune.Load()
	if nowUS-last < window.Microseconds() || !s.lastPrune.CompareAndSwap(last, nowUS) {
		return
	}
	s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM rate_limit_slots WHERE at <= ?"), nowUS-window.Microseconds())
}

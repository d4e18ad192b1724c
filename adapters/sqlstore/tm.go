package sqlstore

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"
)

// tmChunk keeps IN lists and multi-row inserts well under both drivers'
// parameter limits.
const tmChunk = 200

// GetTM looks up an account's stored translations of segments by hash for
// one engine, mode and direction; the result maps hash to target for the
// hits only.
func (s *Store) GetTM(ctx context.Context, account, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	journaled, hashes := s.journaled(account, false, engine, mode, src, tgt, hashes)
	out, err := s.getTM(ctx, "account_id = ? AND ", []any{account}, engine, mode, src, tgt, hashes)
	if err != nil { // out is nil: the journal's hits alone would read as a partial answer
		return nil, err
	}
	for h, t := range journaled {
		out[h] = t
	}
	return out, nil
}

// journaled splits hashes into those the journal holds for account (any
// account if shared), with their targets, and the rest.
func (s *Store) journaled(account string, shared bool, engine, mode, src, tgt string, hashes []string) (map[string]string, []string) {
	if s.journal == nil {
		return nil, hashes
	}
	var found map[string]string
	rest := hashes[:0:0]
	for _, h := range hashes {
		if t, ok := s.journal.get(tmKey{account, engine, mode, src, tgt, h}, shared); ok {
			if found == nil {
				found = map[string]string{}
			}
			found[h] = t
			continue
		}
		rest = append(rest, h)
	}
	return found, rest
}

// GetSharedTM is GetTM over every account's entries.
func (s *Store) GetSharedTM(ctx context.Context, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	journaled, hashes := s.journaled("", true, engine, mode, src, tgt, hashes)
	out, err := s.getTM(ctx, "", nil, engine, mode, src, tgt, hashes)
	if err != nil { // out is nil: the journal's hits alone would read as a partial answer
		return nil, err
	}
	for h, t := range journaled {
		out[h] = t
	}
	return out, nil
}

func (s *Store) getTM(ctx context.Context, scope string, scopeArgs []any, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	out := make(map[string]string, len(hashes))
	for len(hashes) > 0 {
		n := min(len(hashes), tmChunk)
		q, args, err := sqlx.In("SELECT hash, target FROM translation_memory WHERE "+scope+"engine = ? AND mode = ? AND src = ? AND tgt = ? AND hash IN (?)",
			append(scopeArgs, engine, mode, src, tgt, hashes[:n])...)
		if err != nil {
			return nil, err
		}
		rows, err := s.r.QueryContext(ctx, s.r.Rebind(q), args...)
		if err != nil {
			return nil, fmt.Errorf("sqlstore: get tm: %w", err)
		}
		for rows.Next() {
			var h, t string
			if err := rows.Scan(&h, &t); err != nil {
				rows.Close()
				return nil, fmt.Errorf("sqlstore: get tm: %w", err)
			}
			out[h] = t
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("sqlstore: get tm: %w", err)
		}
		hashes = hashes[n:]
	}
	return out, nil
}

// PutTM stores an account's translations (hash to target) in one
// transaction; a hash the account already stored gets the new target.
func (s *Store) PutTM(ctx context.Context, account, engine, mode, src, tgt string, entries map[string]string) error {
	if len(entries) == 0 {
		return nil
	}
	hashes := make([]string, 0, len(entries))
	for h := range entries {
		hashes = append(hashes, h)
	}
	// A fixed order makes concurrent PostgreSQL batches lock rows in the
	// same order, so they cannot deadlock.
	sort.Strings(hashes)
	if s.journal != nil {
		if err := s.journal.put(ctx, account, engine, mode, src, tgt, hashes, entries); err != nil {
			return fmt.Errorf("sqlstore: put tm: %w", err)
		}
		return nil
	}
	now := ts(s.clock())
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		for len(hashes) > 0 {
			n := min(len(hashes), tmChunk)
			var b strings.Builder
			b.WriteString("INSERT INTO translation_memory (account_id, engine, mode, src, tgt, hash, target, created_at) VALUES ")
			args := make([]any, 0, n*8)
			for i, h := range hashes[:n] {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
				args = append(args, account, engine, mode, src, tgt, h, entries[h], now)
			}
			b.WriteString(" ON CONFLICT (account_id, engine, mode, src, tgt, hash) DO UPDATE SET target = excluded.target")
			if _, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...); err != nil {
				return err
			}
			hashes = hashes[n:]
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: put tm: %w", err)
	}
	return nil
}

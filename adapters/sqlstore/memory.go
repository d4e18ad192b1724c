package sqlstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/ports"
)

var _ ports.AccountMemory = (*Store)(nil)

func memoryHash(source string) string {
	sum := sha256.Sum256([]byte(source))
	return hex.EncodeToString(sum[:])
}

// PutMemory stores an account's own translations; a source already stored
// for the direction gets the new target.
func (s *Store) PutMemory(ctx context.Context, accountID string, entries []ports.MemoryEntry) error {
	if len(entries) == 0 {
		return nil
	}
	// One row per key, the last entry winning, in a fixed order so that
	// concurrent PostgreSQL batches lock rows in the same order.
	byKey := map[string]ports.MemoryEntry{}
	for _, e := range entries {
		byKey[e.SourceLang+"\x00"+e.TargetLang+"\x00"+memoryHash(e.Source)] = e
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	now := ts(s.clock())
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		for len(keys) > 0 {
			n := min(len(keys), tmChunk)
			var b strings.Builder
			b.WriteString("INSERT INTO account_memory (account_id, src, tgt, hash, source, target, origin, updated_at) VALUES ")
			args := make([]any, 0, n*8)
			for i, k := range keys[:n] {
				if i > 0 {
					b.WriteString(", ")
				}
				b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?)")
				e := byKey[k]
				args = append(args, accountID, e.SourceLang, e.TargetLang, memoryHash(e.Source), e.Source, e.Target, e.Origin, now)
			}
			b.WriteString(" ON CONFLICT (account_id, src, tgt, hash) DO UPDATE SET target = excluded.target, origin = excluded.origin, updated_at = excluded.updated_at")
			if _, err := tx.ExecContext(ctx, tx.Rebind(b.String()), args...); err != nil {
				return err
			}
			keys = keys[n:]
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: put memory: %w", err)
	}
	return nil
}

// RecallMemory looks sources up in an account's memory for one direction.
func (s *Store) RecallMemory(ctx context.Context, accountID, src, tgt string, sources []string) (map[string]string, error) {
	out := map[string]string{}
	bySum := map[string]string{}
	for _, x := range sources {
		bySum[memoryHash(x)] = x
	}
	hashes := make([]string, 0, len(bySum))
	for h := range bySum {
		hashes = append(hashes, h)
	}
	for len(hashes) > 0 {
		n := min(len(hashes), tmChunk)
		q, args, err := sqlx.In("SELECT source, target FROM account_memory WHERE account_id = ? AND src = ? AND tgt = ? AND hash IN (?)",
			accountID, src, tgt, hashes[:n])
		if err != nil {
			return nil, err
		}
		var rows []struct {
			Source string `db:"source"`
			Target string `db:"target"`
		}
		if err := s.r.SelectContext(ctx, &rows, s.r.Rebind(q), args...); err != nil {
			return nil, fmt.Errorf("sqlstore: recall memory: %w", err)
		}
		for _, r := range rows {
			out[r.Source] = r.Target
		}
		hashes = hashes[n:]
	}
	return out, nil
}

// ListMemory calls fn for every entry of an account, by direction and
// source.
func (s *Store) ListMemory(ctx context.Context, accountID string, fn func(ports.MemoryEntry) error) error {
	rows, err := s.r.QueryxContext(ctx, s.r.Rebind("SELECT src, tgt, source, target, origin FROM account_memory WHERE account_id = ? ORDER BY src, tgt, source"), accountID)
	if err != nil {
		return fmt.Errorf("sqlstore: list memory: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var e ports.MemoryEntry
		if err := rows.Scan(&e.SourceLang, &e.TargetLang, &e.Source, &e.Target, &e.Origin); err != nil {
			return fmt.Errorf("sqlstore: list memory: %w", err)
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

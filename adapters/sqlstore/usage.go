package sqlstore

import (
	"context"
	"fmt"

	"github.com/jmoiron/sqlx"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/quota"
)

// Reserve charges words to the account's period for jobID if they fit the
// limit (nil: unlimited), else quota.ErrExceeded. The check and the
// add are one conditional UPDATE, so concurrent reservations from any
// number of processes never push used_words past the limit. Reserving a
// job twice is a no-op. A job that has ended (cancelled, failed, completed)
// gets nothing, quota.ErrJobEnded: its row is read locked in the same
// transaction (SQLite's single writer; FOR UPDATE on PostgreSQL), so a
// cancellation either ended it before, and is seen, or waits for this
// reservation and releases it. A job the store does not hold is not
// checked.
func (s *Store) Reserve(ctx context.Context, accountID, period, jobID string, words int64, limit *int64) error {
	if words < 0 {
		return fmt.Errorf("sqlstore: reserve %d words: negative", words)
	}
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var status []string
		if err := tx.SelectContext(ctx, &status, tx.Rebind("SELECT status FROM jobs WHERE id = ?"+s.forUpdate()), jobID); err != nil {
			return err
		}
		if len(status) == 1 && job.Status(status[0]).Terminal() {
			return quota.ErrJobEnded
		}
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO usage_reservations (job_id, account_id, period, words, reserved_on) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (job_id) DO NOTHING`), jobID, accountID, period, words, s.clock().UTC().Format("2006-01-02"))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // already reserved: nothing to do
		}
		if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO usage (account_id, period, used_words) VALUES (?, ?, 0)
			ON CONFLICT (account_id, period) DO NOTHING`), accountID, period); err != nil {
			return err
		}
		q, args := "UPDATE usage SET used_words = used_words + ? WHERE account_id = ? AND period = ?", []any{words, accountID, period}
		if limit != nil {
			q += " AND used_words + ? <= ?"
			args = append(args, words, *limit)
		}
		res, err = tx.ExecContext(ctx, tx.Rebind(q), args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return quota.ErrExceeded // the rollback drops the reservation too
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sqlstore: reserve for job %s: %w", jobID, err)
	}
	return nil
}

// Release refunds a job's reservation; a no-op if it has none.
func (s *Store) Release(ctx context.Context, jobID string) error {
	err := s.inTx(ctx, func(tx *sqlx.Tx) error {
		var r struct {
			AccountID string `db:"account_id"`
			Period    string `db:"period"`
			Words     int64  `db:"words"`
		}
		rows, err := tx.QueryxContext(ctx, tx.Rebind("DELETE FROM usage_reservations WHERE job_id = ? RETURNING account_id, period, words"), jobID)
		if err != nil {
			return err
		}
		found := rows.Next()
		if found {
			err = rows.StructScan(&r)
		} else {
			err = rows.Err()
		}
		rows.Close()
		if err != nil || !found {
			return err
		}
		_, err = tx.ExecContext(ctx, tx.Rebind("UPDATE usage SET used_words = used_words - ? WHERE account_id = ? AND period = ?"),
			r.Words, r.AccountID, r.Period)
		return err
	})
	if err != nil {
		return fmt.Errorf("sqlstore: release job %s: %w", jobID, err)
	}
	return nil
}

// Used is the words charged to the account in the period (0 if none).
func (s *Store) Used(ctx context.Context, accountID, period string) (int64, error) {
	var n []int64
	if err := s.r.SelectContext(ctx, &n, s.r.Rebind("SELECT used_words FROM usage WHERE account_id = ? AND period = ?"), accountID, period); err != nil {
		return 0, fmt.Errorf("sqlstore: usage of %s: %w", accountID, err)
	}
	if len(n) == 0 {
		return 0, nil
	}
	return n[0], nil
}

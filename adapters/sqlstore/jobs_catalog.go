package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

var _ ports.JobCatalog = (*Store)(nil)

// ListJobs pages an account's jobs newest first over the jobs_account
// index (account_id, created_at); ties on created_at go by id.
func (s *Store) ListJobs(ctx context.Context, q ports.JobQuery, since time.Time) ([]*job.Job, error) {
	where := " WHERE account_id = ? AND created_at >= ?"
	args := []any{q.AccountID, ts(since)}
	if q.Status != "" {
		where += " AND status = ?"
		args = append(args, string(q.Status))
	}
	if q.Before != nil {
		at := ts(q.Before.CreatedAt)
		where += " AND (created_at < ? OR (created_at = ? AND id < ?))"
		args = append(args, at, at, q.Before.ID)
	}
	limit := q.Limit
	if limit <= 0 {
		limit = 100
	}
	return s.selectJobs(ctx, jobSelect+where+fmt.Sprintf(" ORDER BY created_at DESC, id DESC LIMIT %d", limit), args...)
}

// DeleteJob removes one job record; ports.ErrNotFound if there is none.
func (s *Store) DeleteJob(ctx context.Context, id string) error {
	res, err := s.w.ExecContext(ctx, s.w.Rebind("DELETE FROM jobs WHERE id = ?"), id)
	if err != nil {
		return fmt.Errorf("sqlstore: delete job %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("sqlstore: delete job %s: %w", id, ports.ErrNotFound)
	}
	return nil
}

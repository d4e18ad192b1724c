package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// BatchView is a batch as its owner reads it: its jobs, in the order they
// were made.
type BatchView struct {
	ID   string
	Jobs []*job.Job
}

// Status sums up the batch: pending while no job started, processing
// while any is not finished, then completed (all completed), failed (all
// failed) or partial (some of each).
func (b *BatchView) Status() string {
	var pending, done, failed int
	for _, j := range b.Jobs {
		switch j.Status {
		case job.Pending:
			pending++
		case job.Completed:
			done++
		case job.Failed:
			failed++
		}
	}
	switch n := len(b.Jobs); {
	case pending == n:
		return "pending"
	case done == n:
		return "completed"
	case failed == n:
		return "failed"
	case done+failed == n:
		return "partial"
	}
	return "processing"
}

// Batch reads one of the caller's batches. Another account's batch, or
// one whose jobs are past their retention, is not found.
func (s *Jobs) Batch(ctx context.Context, c *Caller, id string) (*BatchView, error) {
	if s.Batches == nil {
		return nil, fail(KindUnavailable, "batches are not available on this server")
	}
	jobs, err := s.Batches.BatchJobs(ctx, c.Account.ID, id)
	if err != nil {
		return nil, err
	}
	now := s.Clock.Now()
	v := &BatchView{ID: id}
	for _, j := range jobs {
		if now.Sub(j.CreatedAt) < s.Config.JobRetention {
			v.Jobs = append(v.Jobs, j)
		}
	}
	if len(v.Jobs) == 0 {
		return nil, fail(KindNotFound, "batch %s not found or expired", id)
	}
	return v, nil
}

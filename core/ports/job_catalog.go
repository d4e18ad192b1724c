package ports

import (
	"context"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// JobQuery selects one page of an account's jobs, newest first.
type JobQuery struct {
	AccountID string
	Status    job.Status // "": every status
	// Before, when set, starts the page after the job created at
	// Before.CreatedAt with id Before.ID (keyset pagination: stable while
	// jobs are added).
	Before *JobKey
	Limit  int
}

// JobKey is a job's place in the newest-first order.
type JobKey struct {
	CreatedAt time.Time
	ID        string
}

// JobCatalog lists and removes jobs for their owners. The SQL store
// implements it beside JobStore.
type JobCatalog interface {
	// ListJobs returns up to q.Limit jobs of q.AccountID created at or
	// after since, newest first (created_at, then id, descending).
	ListJobs(ctx context.Context, q JobQuery, since time.Time) ([]*job.Job, error)
	// DeleteJob removes one job record; ErrNotFound if there is none.
	DeleteJob(ctx context.Context, id string) error
}

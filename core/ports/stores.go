package ports

import (
	"context"
	"errors"
	"time"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
)

// ErrNotFound is returned by stores for a missing record.
var ErrNotFound = errors.New("not found")

// ErrBadDocument marks errors caused by the document itself (corrupt,
// encrypted, unsupported): retrying cannot help, the job fails at once.
var ErrBadDocument = errors.New("bad document")

// Clock tells the time; tests move it.
type Clock interface{ Now() time.Time }

// JobStore keeps jobs.
type JobStore interface {
	CreateJob(ctx context.Context, j *job.Job) error
	GetJob(ctx context.Context, id string) (*job.Job, error)
	// UpdateJob reads, changes and writes a job atomically. fn may refuse
	// with an error, which is returned and nothing is written.
	UpdateJob(ctx context.Context, id string, fn func(*job.Job) error) (*job.Job, error)
	// CompletedBefore lists completed jobs whose output is still stored
	// and that completed before t.
	CompletedBefore(ctx context.Context, t time.Time) ([]*job.Job, error)
	// DeleteJobsBefore removes the jobs created before t whose files
	// deleteFiles removed, and returns their ids: a job whose files could
	// not be deleted is kept for the next call.
	DeleteJobsBefore(ctx context.Context, t time.Time, deleteFiles func(id string) error) ([]string, error)
	// Unfinished lists jobs that are not terminal (for recovery at start).
	Unfinished(ctx context.Context) ([]*job.Job, error)
}

// AccountStore keeps accounts and API keys.
type AccountStore interface {
	CreateAccount(ctx context.Context, a *account.Account) error
	GetAccount(ctx context.Context, id string) (*account.Account, error)
	UpdateAccount(ctx context.Context, id string, fn func(*account.Account) error) (*account.Account, error)
	CreateKey(ctx context.Context, k account.Key) error
	KeyByHash(ctx context.Context, hash string) (*account.Key, error)
	RevokeKey(ctx context.Context, keyID string, at time.Time) error
}

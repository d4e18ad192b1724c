package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// CancelReason is the error of a job its owner cancelled.
const CancelReason = "cancelled"

// Cancellation says what CancelJob did.
type Cancellation struct {
	Job     *job.Job // the job after the change
	Deleted bool     // a finished job: its record and files were deleted
}

// CancelJob stops a pending or processing job of the caller: it fails with
// the error "cancelled", its reserved words are given back, its files are
// deleted and job.failed is announced. The cancellation stands once
// recorded: what an outage stops (the bucket or the bus down) stays due on
// the job and the sweep finishes it. A stage still running finds the job
// failed when it ends and settles it again (every step is idempotent). A
// finished job (completed or failed) is deleted instead, with its files.
func (s *Jobs) CancelJob(ctx context.Context, c *Caller, id string) (*Cancellation, error) {
	return s.cancel(ctx, c, id, false)
}

// CancelUnfinished is CancelJob for a client stopping the jobs it started
// (Ctrl-C in the CLI, a dashboard submission abandoned): a job that
// finished meanwhile is left as it is, and returned, instead of deleted,
// so a translation completed just before the interrupt is kept. The
// status check and the cancellation are one update: no window between
// them.
func (s *Jobs) CancelUnfinished(ctx context.Context, c *Caller, id string) (*Cancellation, error) {
	return s.cancel(ctx, c, id, true)
}

func (s *Jobs) cancel(ctx context.Context, c *Caller, id string, keepFinished bool) (*Cancellation, error) {
	if _, err := s.Job(ctx, c, id); err != nil {
		return nil, err
	}
	var cancelled bool
	j, err := s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		if j.Status.Terminal() {
			return nil
		}
		cancelled = true
		return j.Fail(CancelReason, s.Clock.Now())
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil, fail(KindNotFound, "job %s not found or expired", id)
	}
	if err != nil {
		return nil, err
	}
	if !cancelled && keepFinished {
		return &Cancellation{Job: j}, nil
	}
	if !cancelled {
		return s.deleteFinished(ctx, j)
	}
	_ = s.settler().Job(context.WithoutCancel(ctx), j) // what fails stays due
	return &Cancellation{Job: j}, nil
}

func (s *Jobs) deleteFinished(ctx context.Context, j *job.Job) (*Cancellation, error) {
	if s.JobCatalog == nil {
		return nil, fail(KindUnavailable, "deleting jobs is not available on this server")
	}
	if err := s.Blobs.DeletePrefix(ctx, job.Prefix(j.ID)); err != nil {
		return nil, err
	}
	if err := s.JobCatalog.DeleteJob(ctx, j.ID); err != nil && !errors.Is(err, ports.ErrNotFound) {
		return nil, err
	}
	return &Cancellation{Job: j, Deleted: true}, nil
}

package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
)

// ConfirmJob starts a job the caller submitted with hold, after its quote:
// it is announced to the pipeline as any new job. A job that is not held
// (never was, or confirmed already, or cancelled) is a conflict; one
// whose hold ran out is refused too (the sweep drops it).
func (s *Jobs) ConfirmJob(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	held, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	j, err := s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error { return j.Confirm(s.Clock.Now()) })
	switch {
	case errors.Is(err, job.ErrHoldExpired):
		return nil, fail(KindConflict, "job %s was held for confirmation until %s and is being dropped; nothing was charged: submit it again", id, held.HeldUntil.UTC().Format("2006-01-02 15:04:05 UTC"))
	case errors.Is(err, job.ErrTransition):
		return nil, fail(KindConflict, "job %s is not waiting for confirmation: only a job submitted with hold, not yet confirmed or cancelled, can be confirmed", id)
	case err != nil:
		return nil, err
	}
	s.announce(ctx, j)
	return j, nil
}

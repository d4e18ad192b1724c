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
//
// A held job reserves no words (a quote is no promise): confirming is
// when it is spent, so a month whose words are used up is refused here as
// a submission is (402), and the job stays held for a change of plan or a
// cancellation. Its words are counted and reserved when it runs, as any
// job's; one that no longer fits then fails without charge.
func (s *Jobs) ConfirmJob(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	held, err := s.Job(ctx, c, id)
	if err != nil {
		return nil, err
	}
	if held.Held() && s.Clock.Now().Before(*held.HeldUntil) {
		if err := checkQuota(ctx, s.Quota, s.Clock, c); err != nil {
			var e *Error
			if errors.As(err, &e) && e.Kind == KindQuota {
				e.Message += "; the job stays held until " + held.HeldUntil.UTC().Format("2006-01-02 15:04:05 UTC") + ": confirm it once words are available, or cancel it"
			}
			return nil, err
		}
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

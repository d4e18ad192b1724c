package job

import (
	"fmt"
	"time"
)

// Held jobs: a job submitted with hold stays pending, with nothing started
// and nothing charged, until its owner confirms it (after a quote) or
// cancels it. One not confirmed by HeldUntil is dropped.

// Held reports whether the job waits for its owner's confirmation.
func (j *Job) Held() bool { return j.HeldUntil != nil && j.Status == Pending }

// Hold keeps a new pending job from starting until Confirm, at the latest
// until until.
func (j *Job) Hold(until time.Time) error {
	if j.Status != Pending || j.Stage != StageAccepted {
		return fmt.Errorf("%w: hold of a %s job", ErrTransition, j.Status)
	}
	u := until
	j.HeldUntil = &u
	return nil
}

// Confirm releases a held job to the pipeline. A job confirmed after its
// hold ran out is refused (the sweep drops it).
func (j *Job) Confirm(now time.Time) error {
	if !j.Held() {
		return fmt.Errorf("%w: confirmation of a %s job that is not held", ErrTransition, j.Status)
	}
	if !now.Before(*j.HeldUntil) {
		return fmt.Errorf("%w: the hold ran out at %s", ErrHoldExpired, j.HeldUntil.Format(time.RFC3339))
	}
	j.HeldUntil, j.UpdatedAt = nil, now
	return nil
}

// ErrHoldExpired is returned by Confirm for a job whose hold ran out.
var ErrHoldExpired = fmt.Errorf("%w: hold expired", ErrTransition)

package pipeline

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/failure"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/settle"
)

// How a job ends. The terminal state is written with what the job then
// owes (its event; for a failure, its words given back and its files
// deleted: job.AnnounceDue, job.CleanupDue), and settled at once; what an
// outage stops is left on the job for the sweep (settle.Settler.Due), so
// no event of an ended job waits on a clean-up and no outage loses either.

// DefaultRetryFor is how long a stage may keep failing with errors worth
// retrying (an unreachable database, bucket or engine) before its job
// fails: longer than the outages a deployment should ride out.
const DefaultRetryFor = 10 * time.Minute

func (p *Pipeline) retryFor() time.Duration {
	if p.RetryFor <= 0 {
		return DefaultRetryFor
	}
	return p.RetryFor
}

// retryLater answers a stage's error worth retrying. The bus redelivers
// the event with a growing delay (capped at a minute) for as long as the
// stage has failed for less than RetryFor, counted from its first failure,
// so an outage shorter than that costs the job nothing however many
// deliveries it takes; past it the job fails with the error. The attempt
// is given back to the crash-loop count: it ended, it did not crash.
func (p *Pipeline) retryLater(ctx context.Context, j *job.Job, done job.Stage, cause error) error {
	now := p.Clock.Now()
	if d := j.RetryingFor(now); d >= p.retryFor() {
		return p.fail(ctx, j, fmt.Sprintf("processing failed repeatedly at the %s stage for %s: %s",
			done, d.Round(time.Second), clientReason(cause)))
	}
	if _, err := p.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if j.Status == job.Processing {
			j.Retrying(now)
		}
		return nil
	}); err != nil {
		p.log().Debug("stage failure not recorded", "job_id", j.ID, "err", err)
	}
	p.log().Warn("stage failed; it will be retried", "job_id", j.ID, "stage", done, "attempt", j.Attempts, "err", cause)
	return cause
}

// clientReason is how an error reads in a job's error: an outage in its
// own words (no addresses), anything else as it is.
func clientReason(err error) string {
	var u *ports.Unavailable
	if errors.As(err, &u) {
		return u.Message()
	}
	return err.Error()
}

// fail ends a job: it records the reason with what the failure owes and
// settles it. A job that completed meanwhile (a duplicate stage finished
// it) is left alone.
func (p *Pipeline) fail(ctx context.Context, j *job.Job, reason string) error {
	return p.failApply(ctx, j, reason, nil)
}

// failApply is fail that also records apply's changes on the failed job.
// Only a failure that could not be recorded is returned (for the event
// to come back).
func (p *Pipeline) failApply(ctx context.Context, j *job.Job, raw string, apply func(*job.Job)) error {
	// The job keeps the reason in people's words, which every reader of
	// it (status, webhook, bus event, dashboard, local CLI) shows as is;
	// what the plugin or the library said goes to the log.
	reason := failure.Words(raw)
	j, err := p.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if j.Status.Terminal() {
			return nil
		}
		if apply != nil {
			apply(j)
		}
		return j.Fail(reason, p.Clock.Now())
	})
	if err != nil {
		return err
	}
	if j.Status != job.Failed {
		return nil
	}
	p.log().Info("job failed", "job_id", j.ID, "reason", raw)
	return p.settle(ctx, j)
}

// settle does what an ended job owes, now. It is repeated whenever an
// event of an ended job comes back; what fails (the bucket or the bus
// down) stays recorded on the job for the sweep, so the event is
// acknowledged either way.
func (p *Pipeline) settle(ctx context.Context, j *job.Job) error {
	if !j.AnnounceDue && !j.CleanupDue {
		return nil
	}
	if err := p.settler().Job(ctx, j); err != nil {
		p.log().Warn("job ended; what it still owes is left for the sweep", "job_id", j.ID, "err", err)
	}
	return nil
}

// settleLate follows a stage that outlived its failed job: what it
// reserved or wrote came after the failure's clean-up, which is owed again.
func (p *Pipeline) settleLate(ctx context.Context, j *job.Job) error {
	j, err := p.Jobs.UpdateJob(ctx, j.ID, func(j *job.Job) error {
		if j.Status == job.Failed {
			j.CleanupDue = true
		}
		return nil
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return p.settle(ctx, j)
}

// settler is the Settle configured, or one on the pipeline's own ports.
func (p *Pipeline) settler() *settle.Settler {
	if p.Settle != nil {
		return p.Settle
	}
	return &settle.Settler{Jobs: p.Jobs, Quota: p.Quota, Blobs: p.Blobs, Bus: p.Bus, Clock: p.Clock}
}

// GiveUp fails the job of an event the transport stopped redelivering, so
// no job stays in processing for ever. An error means the failure could
// not be recorded: the transport keeps the event.
func (p *Pipeline) GiveUp(ctx context.Context, jobID string, cause error) error {
	j, err := p.Jobs.GetJob(ctx, jobID)
	if errors.Is(err, ports.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if j.Status.Terminal() {
		return p.settle(ctx, j)
	}
	return p.fail(ctx, j, fmt.Sprintf("processing failed repeatedly after the %s stage: %s", j.Stage, clientReason(cause)))
}

// finish completes a job whose output is stored.
func (p *Pipeline) finish(ctx context.Context, e ports.JobEvent) error {
	j, err := p.Jobs.GetJob(ctx, e.JobID)
	if errors.Is(err, ports.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if j.Status.Terminal() {
		return p.settle(ctx, j)
	}
	if stopped, err := p.stopIfSuspended(ctx, j); stopped || err != nil {
		return err
	}
	j, err = p.Jobs.UpdateJob(ctx, e.JobID, func(j *job.Job) error {
		if j.Status.Terminal() {
			return nil
		}
		return j.Complete(p.Clock.Now())
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return p.settle(ctx, j)
}

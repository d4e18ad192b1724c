package pipeline

import (
	"context"
	"errors"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// errJobEnded is the cause of a stage's context cancelled because its job
// ended meanwhile.
var errJobEnded = errors.New("the job ended while a stage worked on it")

// forJob is the context a stage's work runs in. It names the job's
// account, so the converters share their instances fairly between
// accounts (ports.WithAccount), and it is cancelled, with errJobEnded as
// its cause, once the job is found ended: cancelled by its owner (DELETE
// /v1/jobs/{job_id}), or failed or deleted by another process. Everything
// working for the job was given this context, so its conversion (soffice
// is killed), its PDF rendition and its engine calls stop with it (issue
// 26: a cancelled job's soffice went on for 8 minutes). The job store is
// asked every CancelPoll, so this works across processes. Call stop when
// the work is done.
func (p *Pipeline) forJob(ctx context.Context, j *job.Job) (_ context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(ports.WithAccount(ctx, j.AccountID))
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(p.cancelPoll())
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cur, err := p.Jobs.GetJob(ctx, j.ID)
			if errors.Is(err, ports.ErrNotFound) || (err == nil && cur.Status.Terminal()) {
				cancel(errJobEnded)
				return
			}
		}
	}()
	return ctx, func() {
		close(done)
		cancel(nil)
	}
}

func (p *Pipeline) cancelPoll() time.Duration {
	if p.CancelPoll <= 0 {
		return time.Second
	}
	return p.CancelPoll
}

// jobEnded settles a job whose stage was stopped because the job ended:
// a failed (cancelled) one owes its clean-up again, so nothing the stopped
// stage wrote outlives it.
func (p *Pipeline) jobEnded(ctx context.Context, id string) error {
	j, err := p.Jobs.GetJob(ctx, id)
	switch {
	case errors.Is(err, ports.ErrNotFound):
		return nil
	case err != nil:
		return err
	case j.Status == job.Failed:
		p.log().Info("stage stopped: its job ended", "job_id", id, "reason", j.Error)
		return p.settleLate(ctx, j)
	}
	return nil
}

// Package settle does what a job owes once it has ended: its terminal
// event on the bus (job_completed or job_failed, which the webhooks and
// the event subscribers follow) and, for a failed job, the words it
// reserved given back and its files deleted.
//
// What is owed is recorded on the job in the same write as its terminal
// state (job.AnnounceDue, job.CleanupDue), so it survives the outage that
// may have caused the failure: whoever ends a job settles it at once, and
// the sweep (Due) settles, every few seconds, what an outage interrupted.
// Each step is idempotent and cleared on its own, so a failed clean-up
// (the bucket down) never holds back the announcement, and the other way
// round.
package settle

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Releaser gives back the words a job reserved (quota.Store).
type Releaser interface {
	Release(ctx context.Context, jobID string) error
}

// Owing lists the ended jobs that still owe a follow-up.
type Owing interface {
	// Owing lists ended jobs with AnnounceDue or CleanupDue set that
	// ended before t, oldest first.
	Owing(ctx context.Context, before time.Time) ([]*job.Job, error)
}

// Settler settles ended jobs.
type Settler struct {
	Jobs  ports.JobStore
	Owing Owing
	Quota Releaser
	Blobs ports.BlobStore
	Bus   ports.EventBus
	Clock ports.Clock
}

// Job does what j owes, the clean-up first (so a receiver of job.failed
// finds the words given back) but announcing even when it failed. A step
// done is cleared on the job; the error says what is left for the sweep.
func (s *Settler) Job(ctx context.Context, j *job.Job) error {
	var errs []error
	if j.CleanupDue {
		if err := s.cleanUp(ctx, j); err != nil {
			errs = append(errs, fmt.Errorf("clean-up of job %s: %w", j.ID, err))
		} else {
			errs = append(errs, s.clear(ctx, j.ID, func(j *job.Job) { j.CleanupDue = false }))
		}
	}
	if j.AnnounceDue {
		t, e := ports.TerminalEvent(j, s.Clock.Now())
		if err := s.Bus.Publish(ctx, t, e); err != nil {
			errs = append(errs, fmt.Errorf("announcing job %s: %w", j.ID, err))
		} else {
			status, revision := j.Status, j.Revision
			errs = append(errs, s.clear(ctx, j.ID, func(j *job.Job) {
				// A revision completed meanwhile owes its own announcement.
				if j.Status == status && j.Revision == revision {
					j.AnnounceDue = false
				}
			}))
		}
	}
	return errors.Join(errs...)
}

// cleanUp gives back a failed job's reserved words and deletes its files.
func (s *Settler) cleanUp(ctx context.Context, j *job.Job) error {
	if err := s.Quota.Release(ctx, j.ID); err != nil {
		return err
	}
	return s.Blobs.DeletePrefix(ctx, job.Prefix(j.ID))
}

// clear records a step done. A job deleted meanwhile owes nothing.
func (s *Settler) clear(ctx context.Context, id string, done func(*job.Job)) error {
	_, err := s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		done(j)
		return nil
	})
	if errors.Is(err, ports.ErrNotFound) {
		return nil
	}
	return err
}

// Due settles the jobs that ended more than idle ago and still owe
// something: the follow-ups an outage interrupted. idle leaves the jobs
// that just ended to whoever ended them.
func (s *Settler) Due(ctx context.Context, idle time.Duration) error {
	jobs, err := s.Owing.Owing(ctx, s.Clock.Now().Add(-idle))
	if err != nil {
		return err
	}
	var errs []error
	for _, j := range jobs {
		if err := s.Job(ctx, j); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

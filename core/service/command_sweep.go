package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// expireOutput deletes a job's files and records when; the job record stays
// until its retention ends.
func (s *Service) expireOutput(ctx context.Context, id string) {
	_ = s.Blobs.DeletePrefix(ctx, job.Prefix(id))
	now := s.Clock.Now()
	_, _ = s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		if j.ExpiredAt == nil {
			j.ExpiredAt = &now
		}
		return nil
	})
}

// Sweep deletes outputs past their download window and jobs past their
// retention, and drops held jobs not confirmed in time. It runs
// periodically.
func (s *Service) Sweep(ctx context.Context) error {
	if err := s.dropHeld(ctx); err != nil {
		return err
	}
	now := s.Clock.Now()
	done, err := s.Jobs.CompletedBefore(ctx, now.Add(-s.Config.DownloadTTL))
	if err != nil {
		return err
	}
	for _, j := range done {
		s.expireOutput(ctx, j.ID)
	}
	gone, err := s.Jobs.DeleteJobsBefore(ctx, now.Add(-s.Config.JobRetention))
	if err != nil {
		return err
	}
	for _, id := range gone {
		_ = s.Blobs.DeletePrefix(ctx, job.Prefix(id))
	}
	return nil
}

package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// Sweep deletes outputs past their download window and jobs past their
// retention, and drops held jobs not confirmed in time. It runs
// periodically.
func (s *Jobs) Sweep(ctx context.Context) error {
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

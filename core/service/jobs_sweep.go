package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
)

// Sweep deletes outputs past their download window and jobs past their
// retention, each job's files before its record, and drops held jobs not
// confirmed in time. It runs periodically; what fails is tried again on
// the next run.
func (s *Jobs) Sweep(ctx context.Context) error {
	if err := s.dropHeld(ctx); err != nil {
		return err
	}
	now := s.Clock.Now()
	done, err := s.Jobs.CompletedBefore(ctx, now.Add(-s.Config.DownloadTTL))
	if err != nil {
		return err
	}
	var errs []error
	for _, j := range done {
		errs = append(errs, s.expireOutput(ctx, j.ID))
	}
	_, err = s.Jobs.DeleteJobsBefore(ctx, now.Add(-s.Config.JobRetention), func(id string) error {
		return s.Blobs.DeletePrefix(ctx, job.Prefix(id))
	})
	return errors.Join(append(errs, err)...)
}

package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
)

// expireOutput deletes a job's files and then records when; the job
// record stays until its retention ends. A delete that fails (the bucket
// down) records nothing, so the next sweep tries again: the download
// answers 410 meanwhile, and the files do not wait for the retention.
func (s *Service) expireOutput(ctx context.Context, id string) error {
	if err := s.Blobs.DeletePrefix(ctx, job.Prefix(id)); err != nil {
		return fmt.Errorf("expiring the output of job %s: %w", id, err)
	}
	now := s.Clock.Now()
	_, err := s.Jobs.UpdateJob(ctx, id, func(j *job.Job) error {
		if j.ExpiredAt == nil {
			j.ExpiredAt = &now
		}
		return nil
	})
	return err
}

// Sweep deletes outputs past their download window and jobs past their
// retention, each job's files before its record. It runs periodically;
// what fails is tried again on the next run.
func (s *Service) Sweep(ctx context.Context) error {
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

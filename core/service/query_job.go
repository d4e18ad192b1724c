package service

import (
	"context"
	"errors"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Job returns a job of the caller. Another account's job, or one past its
// retention, is not found: ids of others are never confirmed.
func (s *Service) Job(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	j, err := s.Jobs.GetJob(ctx, id)
	if errors.Is(err, ports.ErrNotFound) || (err == nil && (j.AccountID != c.Account.ID || s.expired(j))) {
		return nil, fail(KindNotFound, "job %s not found or expired", id)
	}
	return j, err
}

func (s *Service) expired(j *job.Job) bool {
	return s.Clock.Now().Sub(j.CreatedAt) >= s.Config.JobRetention
}

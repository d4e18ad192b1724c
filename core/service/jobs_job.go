package service

import (
	"context"

	"github.com/dragoman-translate/dragoman/core/job"
)

// Job returns a job of the caller. Another account's job, or one past its
// retention, is not found: ids of others are never confirmed.
func (s *Jobs) Job(ctx context.Context, c *Caller, id string) (*job.Job, error) {
	return callerJob(ctx, s.Jobs, s.Clock, s.Config, c, id)
}

package service

import (
	"context"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
)

// dropHeld ends the held jobs whose hold ran out: each fails with the
// reason, its document is deleted and job.failed is announced (settled as
// a cancellation is). Nothing was reserved for a held job, so nothing is
// charged.
func (s *Jobs) dropHeld(ctx context.Context) error {
	if s.Batches == nil {
		return nil
	}
	now := s.Clock.Now()
	held, err := s.Batches.HeldBefore(ctx, now)
	if err != nil {
		return err
	}
	for _, h := range held {
		reason := fmt.Sprintf("not confirmed within %s of its submission (hold): dropped, and nothing was charged", s.Config.holdFor())
		var dropped bool
		j, err := s.Jobs.UpdateJob(ctx, h.ID, func(j *job.Job) error {
			if !j.Held() || now.Before(*j.HeldUntil) {
				return nil // confirmed or cancelled meanwhile
			}
			dropped = true
			return j.Fail(reason, now)
		})
		if err != nil || !dropped {
			continue
		}
		// As a cancellation: files deleted and job.failed sent, or left
		// due on the job for the sweep when an outage stops them.
		_ = s.settler().Job(context.WithoutCancel(ctx), j)
	}
	return nil
}

package service

import (
	"context"
	"fmt"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// dropHeld ends the held jobs whose hold ran out: each fails with the
// reason, its document is deleted and job.failed is announced. Nothing was
// reserved for a held job, so nothing is charged.
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
		_ = s.Blobs.DeletePrefix(ctx, job.Prefix(j.ID))
		ev := ports.JobEvent{EventID: ports.StageEventID(j.ID, ports.TopicFailed), JobID: j.ID, AccountID: j.AccountID,
			Stage: j.Stage, Status: j.Status, At: now, Error: j.Error}
		_ = s.Bus.Publish(ctx, ports.TopicFailed, ev)
	}
	return nil
}

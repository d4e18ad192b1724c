package pipeline

import (
	"context"
	"testing"

	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// A job whose account is suspended stops at its next stage, or before it
// completes: no more work, its words given back, job.failed announced
// with the reason. An active account's job goes on.
func TestSuspendedAccountStopsItsJobs(t *testing.T) {
	for _, at := range []string{"stage", "finish"} {
		p, js, q, b := newPipeline(t)
		acct := &account.Account{ID: "a1", PlanName: "pro"}
		p.Accounts = oneAccount{a: acct}
		q.Reserve(context.Background(), "a1", "2026-11", "j1", 120, nil)
		worked := 0
		h := p.stage(job.StageTranslated, ports.TopicTranslated, func(context.Context, *job.Job) (func(*job.Job), error) {
			worked++
			return nil, nil
		})
		if at == "finish" {
			js.UpdateJob(context.Background(), "j1", func(j *job.Job) error {
				j.Start(clock{}.Now())
				j.Stage = job.StageLaidOut
				return nil
			})
			h = p.finish
		}
		acct.Suspended = true
		if err := h(context.Background(), event()); err != nil {
			t.Fatal(err)
		}
		j := mustJob(t, js)
		if j.Status != job.Failed || j.Error != SuspendedReason || worked != 0 {
			t.Errorf("%s: job %s (%q), stage work ran %d times", at, j.Status, j.Error, worked)
		}
		if _, held := q.reserved["j1"]; held || b.count(ports.TopicFailed) != 1 || b.count(ports.TopicCompleted) != 0 {
			t.Errorf("%s: words held %v, events %v", at, held, b.sent)
		}
	}
	p, js, _, b := newPipeline(t)
	p.Accounts = oneAccount{a: &account.Account{ID: "a1", PlanName: "pro"}}
	h := p.stage(job.StageConverted, ports.TopicConverted, func(context.Context, *job.Job) (func(*job.Job), error) { return nil, nil })
	if err := h(context.Background(), event()); err != nil || mustJob(t, js).Status != job.Processing || b.count(ports.TopicConverted) != 1 {
		t.Errorf("active account: %v, %s, %v", err, mustJob(t, js).Status, b.sent)
	}
}

package pipeline

import (
	"context"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// issue 26: a job cancelled while a stage works on it (DELETE
// /v1/jobs/{job_id}, which fails it in the store, maybe from another
// process) stops that work: the context everything working for the job
// was given ends, and the stage settles the failure instead of retrying.
// The context names the job's account, for the converters' fair sharing.
func TestCancelledJobStopsItsStage(t *testing.T) {
	p, js, q, b := newPipeline(t)
	p.CancelPoll = 20 * time.Millisecond
	q.Reserve(context.Background(), "a1", "2026-11", "j1", 100, nil)
	started := make(chan string, 1)
	stopped := make(chan error, 1)
	h := p.stage(job.StageConverted, ports.TopicConverted, func(ctx context.Context, _ *job.Job) (func(*job.Job), error) {
		started <- ports.AccountOf(ctx)
		select {
		case <-ctx.Done():
			stopped <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-time.After(time.Minute):
			stopped <- nil
			return nil, nil
		}
	})
	done := make(chan error, 1)
	go func() { done <- h(context.Background(), event()) }()
	if account := <-started; account != "a1" {
		t.Errorf("the stage's context names account %q, want a1", account)
	}
	began := time.Now()
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error { return j.Fail("cancelled", clock{}.Now()) })
	select {
	case cause := <-stopped:
		if cause != errJobEnded {
			t.Errorf("stopped with cause %v, want errJobEnded", cause)
		}
		t.Logf("the stage's work stopped %s after the cancel", time.Since(began).Round(time.Millisecond))
	case <-time.After(10 * time.Second):
		t.Fatal("the stage still works 10 s after its job was cancelled")
	}
	if err := <-done; err != nil {
		t.Errorf("the stopped stage returned %v, want nil (settled, not retried)", err)
	}
	if q.released != 1 || b.count(ports.TopicFailed) != 1 {
		t.Errorf("after the stop: %d releases, %d failure events; want the failure settled once", q.released, b.count(ports.TopicFailed))
	}
}

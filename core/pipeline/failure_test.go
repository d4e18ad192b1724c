package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Fakes of the ports, just enough for the failure paths.

type jobs struct {
	mu sync.Mutex
	m  map[string]job.Job
}

func (s *jobs) CreateJob(_ context.Context, j *job.Job) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[j.ID] = *j
	return nil
}
func (s *jobs) GetJob(_ context.Context, id string) (*job.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.m[id]
	if !ok {
		return nil, ports.ErrNotFound
	}
	return &j, nil
}
func (s *jobs) UpdateJob(_ context.Context, id string, fn func(*job.Job) error) (*job.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j, ok := s.m[id]
	if !ok {
		return nil, ports.ErrNotFound
	}
	if err := fn(&j); err != nil {
		return nil, err
	}
	s.m[id] = j
	return &j, nil
}
func (s *jobs) CompletedBefore(context.Context, time.Time) ([]*job.Job, error) { return nil, nil }
func (s *jobs) DeleteJobsBefore(context.Context, time.Time, func(string) error) ([]string, error) {
	return nil, nil
}
func (s *jobs) Unfinished(context.Context) ([]*job.Job, error) { return nil, nil }

type quotaStore struct {
	mu       sync.Mutex
	reserved map[string]int64
	released int
}

func (q *quotaStore) Reserve(_ context.Context, _, _, jobID string, words int64, _ *int64) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.reserved[jobID] = words
	return nil
}
func (q *quotaStore) Release(_ context.Context, jobID string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.reserved, jobID)
	q.released++
	return nil
}
func (q *quotaStore) Used(context.Context, string, string) (int64, error) { return 0, nil }

type blobs struct{}

type blob struct{ *bytes.Reader }

func (blob) Close() error { return nil }

func (blobs) Put(_ context.Context, _ string, r io.Reader) (int64, error) {
	return io.Copy(io.Discard, r)
}
func (blobs) Open(context.Context, string) (ports.Blob, error) {
	return blob{bytes.NewReader(nil)}, nil
}
func (blobs) Delete(context.Context, string) error       { return nil }
func (blobs) DeletePrefix(context.Context, string) error { return nil }

type bus struct {
	mu   sync.Mutex
	sent []ports.Topic
}

func (b *bus) Publish(_ context.Context, t ports.Topic, _ ports.JobEvent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sent = append(b.sent, t)
	return nil
}
func (b *bus) Handle(string, ports.Topic, ports.EventHandler)                {}
func (b *bus) HandleConcurrent(string, ports.Topic, int, ports.EventHandler) {}
func (b *bus) count(t ports.Topic) int {
	n := 0
	for _, s := range b.sent {
		if s == t {
			n++
		}
	}
	return n
}

type clock struct{}

func (clock) Now() time.Time { return time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC) }

// movingClock is a clock the test moves.
type movingClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *movingClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *movingClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

func newPipeline(t *testing.T) (*Pipeline, *jobs, *quotaStore, *bus) {
	js := &jobs{m: map[string]job.Job{}}
	q := &quotaStore{reserved: map[string]int64{}}
	b := &bus{}
	p := &Pipeline{Jobs: js, Quota: q, Blobs: blobs{}, Bus: b, Clock: clock{}, NewID: func() string { return "id" }}
	js.CreateJob(context.Background(), job.New("j1", "a1", clock{}.Now()))
	return p, js, q, b
}

func event() ports.JobEvent { return ports.JobEvent{JobID: "j1"} }

// A passing error (an outage) leaves the job processing for the bus to
// redeliver, however many deliveries the outage takes, for as long as the
// stage has failed for less than RetryFor; past it the job fails, once,
// with the error in its reason.
func TestPassingErrorsAreRetriedForATimeNotACount(t *testing.T) {
	p, js, _, b := newPipeline(t)
	now := &movingClock{t: clock{}.Now()}
	p.Clock = now
	h := p.stage(job.StageConverted, ports.TopicConverted, func(context.Context, *job.Job) (func(*job.Job), error) {
		return nil, &ports.Unavailable{What: "the document store", Reason: "is not answering", Err: errors.New("dial tcp 10.1.2.3:9000: connection refused")}
	})
	for i := 0; i < 5*p.maxAttempts(); i++ { // far more deliveries than the crash-loop bound
		if err := h(context.Background(), event()); err == nil {
			t.Fatal("a passing error must be returned for redelivery")
		}
		now.add(DefaultRetryFor / time.Duration(10*p.maxAttempts()))
	}
	j := mustJob(t, js)
	if j.Status != job.Processing || b.count(ports.TopicFailed) != 0 {
		t.Fatalf("after %s of failures the job is %s (%s), %d failures announced", j.RetryingFor(now.Now()), j.Status, j.Error, b.count(ports.TopicFailed))
	}
	if j.RetryingSince == nil || !j.RetryingSince.Equal(clock{}.Now()) {
		t.Errorf("retrying since %v, want the first failure", j.RetryingSince)
	}
	now.add(DefaultRetryFor)
	if err := h(context.Background(), event()); err != nil {
		t.Fatalf("a job failed for good is acknowledged: %v", err)
	}
	j = mustJob(t, js)
	if j.Status != job.Failed || !strings.Contains(j.Error, "the document store is not answering") || strings.Contains(j.Error, "10.1.2.3") {
		t.Errorf("after the retry time the job is %s: %q", j.Status, j.Error)
	}
	if b.count(ports.TopicFailed) != 1 || j.AnnounceDue || j.CleanupDue {
		t.Errorf("%d failures announced; still due: announce %v, clean-up %v", b.count(ports.TopicFailed), j.AnnounceDue, j.CleanupDue)
	}
}

// A stage that starts and never ends (it kills its process) is stopped
// after MaxAttempts starts.
func TestCrashLoopIsStopped(t *testing.T) {
	p, js, _, _ := newPipeline(t)
	h := p.stage(job.StageConverted, ports.TopicConverted, func(context.Context, *job.Job) (func(*job.Job), error) {
		runtime.Goexit() // the process dies here
		return nil, nil
	})
	for i := 0; i <= p.maxAttempts(); i++ {
		done := make(chan struct{})
		go func() { defer close(done); h(context.Background(), event()) }()
		<-done
	}
	if j := mustJob(t, js); j.Status != job.Failed || !strings.Contains(j.Error, "attempts") {
		t.Errorf("a crash loop is not stopped: %s %q", j.Status, j.Error)
	}
}

// Failing a job that a duplicate stage completed meanwhile changes nothing.
func TestFailLeavesACompletedJobAlone(t *testing.T) {
	p, js, q, b := newPipeline(t)
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error { j.Start(clock{}.Now()); return j.Complete(clock{}.Now()) })
	q.Reserve(context.Background(), "a1", "2026-11", "j1", 100, nil)
	j, _ := js.GetJob(context.Background(), "j1")
	if err := p.fail(context.Background(), j, "engine failed"); err != nil {
		t.Fatal(err)
	}
	j, _ = js.GetJob(context.Background(), "j1")
	if j.Status != job.Completed || q.reserved["j1"] != 100 || b.count(ports.TopicFailed) != 0 {
		t.Errorf("status %s, reserved %d, failures announced %d", j.Status, q.reserved["j1"], b.count(ports.TopicFailed))
	}
}

// A stage whose job failed while it worked gives back what it reserved.
func TestStageThatOutlivesItsJobReleasesTheWords(t *testing.T) {
	p, js, q, b := newPipeline(t)
	h := p.stage(job.StageExtracted, ports.TopicExtracted, func(ctx context.Context, j *job.Job) (func(*job.Job), error) {
		q.Reserve(ctx, "a1", "2026-11", "j1", 42, nil)
		js.UpdateJob(ctx, "j1", func(j *job.Job) error { return j.Fail("given up", clock{}.Now()) }) // meanwhile
		return nil, nil
	})
	if err := h(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
	if _, held := q.reserved["j1"]; held {
		t.Error("the failed job keeps its reserved words")
	}
	if b.count(ports.TopicExtracted) != 0 || b.count(ports.TopicFailed) != 1 {
		t.Errorf("events: %v", b.sent)
	}
}

// An event of a failed job repeats the follow-up of the failure, so a
// refund that failed once is not lost.
func TestRedeliveredEventOfAFailedJobSettlesIt(t *testing.T) {
	p, js, q, b := newPipeline(t)
	js.UpdateJob(context.Background(), "j1", func(j *job.Job) error { return j.Fail("quota", clock{}.Now()) })
	q.Reserve(context.Background(), "a1", "2026-11", "j1", 7, nil) // left behind by a refund that failed
	h := p.stage(job.StageTranslated, ports.TopicTranslated, func(context.Context, *job.Job) (func(*job.Job), error) {
		t.Fatal("no work on a failed job")
		return nil, nil
	})
	if err := h(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
	if _, held := q.reserved["j1"]; held || b.count(ports.TopicFailed) != 1 {
		t.Errorf("reserved %v, failures announced %d", q.reserved, b.count(ports.TopicFailed))
	}
	if !strings.Contains(mustJob(t, js).Error, "quota") {
		t.Error("the reason changed")
	}
}

func mustJob(t *testing.T, js *jobs) *job.Job {
	j, err := js.GetJob(context.Background(), "j1")
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// A stage's failure is recorded in people's words: the job's error (which
// the bus event, the webhook and the local CLI carry as is) holds neither
// gRPC's wrapping nor a path of the server.
func TestFailureIsRecordedInPeoplesWords(t *testing.T) {
	p, js, _, _ := newPipeline(t)
	h := p.stage(job.StageExtracted, ports.TopicExtracted, func(context.Context, *job.Job) (func(*job.Job), error) {
		return nil, fmt.Errorf("%w: rpc error: code = Unknown desc = soffice could not convert /tmp/dragoman-lo-1/in/report.doc: general input/output error", ports.ErrBadDocument)
	})
	if err := h(context.Background(), event()); err != nil {
		t.Fatal(err)
	}
	j := mustJob(t, js)
	if j.Status != job.Failed || strings.Contains(j.Error, "rpc error") || strings.Contains(j.Error, "/tmp/") || !strings.Contains(j.Error, "soffice could not convert the document: general input/output error") {
		t.Errorf("job %s with error %q", j.Status, j.Error)
	}
}

package settle

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

var t0 = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)

type clock struct{ t time.Time }

func (c *clock) Now() time.Time { return c.t }

// jobs is a job store holding one job, listing it while it owes something.
type jobs struct {
	mu   sync.Mutex
	j    job.Job
	down bool
}

func (s *jobs) CreateJob(context.Context, *job.Job) error { return nil }
func (s *jobs) GetJob(context.Context, string) (*job.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.j
	return &j, nil
}
func (s *jobs) UpdateJob(_ context.Context, _ string, fn func(*job.Job) error) (*job.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.down {
		return nil, &ports.Unavailable{What: "the database", Reason: "is not answering"}
	}
	j := s.j
	if err := fn(&j); err != nil {
		return nil, err
	}
	s.j = j
	return &j, nil
}
func (s *jobs) CompletedBefore(context.Context, time.Time) ([]*job.Job, error) { return nil, nil }
func (s *jobs) DeleteJobsBefore(context.Context, time.Time, func(string) error) ([]string, error) {
	return nil, nil
}
func (s *jobs) Unfinished(context.Context) ([]*job.Job, error) { return nil, nil }
func (s *jobs) Owing(_ context.Context, before time.Time) ([]*job.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if (s.j.AnnounceDue || s.j.CleanupDue) && s.j.CompletedAt.Before(before) {
		j := s.j
		return []*job.Job{&j}, nil
	}
	return nil, nil
}

// outage is a dependency that is down while down is set.
type outage struct {
	down  bool
	calls int
}

func (o *outage) call() error {
	o.calls++
	if o.down {
		return &ports.Unavailable{What: "it", Reason: "is not answering"}
	}
	return nil
}

type quota struct{ outage }

func (q *quota) Release(context.Context, string) error { return q.call() }

type blobs struct {
	outage
	deleted []string
}

func (b *blobs) Put(context.Context, string, io.Reader) (int64, error) {
	return 0, nil
}
func (b *blobs) Open(context.Context, string) (ports.Blob, error) { return nil, ports.ErrNotFound }
func (b *blobs) Delete(context.Context, string) error             { return b.call() }
func (b *blobs) DeletePrefix(_ context.Context, p string) error {
	if err := b.call(); err != nil {
		return err
	}
	b.deleted = append(b.deleted, p)
	return nil
}

type bus struct {
	outage
	sent []ports.JobEvent
}

func (b *bus) Publish(_ context.Context, _ ports.Topic, e ports.JobEvent) error {
	if err := b.call(); err != nil {
		return err
	}
	b.sent = append(b.sent, e)
	return nil
}
func (b *bus) Handle(string, ports.Topic, ports.EventHandler)                {}
func (b *bus) HandleConcurrent(string, ports.Topic, int, ports.EventHandler) {}

func failedJob() job.Job {
	j := job.New("j1", "a1", t0)
	j.Start(t0)
	j.Fail("engine failed", t0)
	return *j
}

// The bucket is down when a job fails: job.failed goes out at once, the
// clean-up stays due, and the sweep does it once the bucket is back.
func TestFailedCleanUpNeverHoldsBackTheEvent(t *testing.T) {
	js := &jobs{j: failedJob()}
	q, bl, b := &quota{}, &blobs{}, &bus{}
	bl.down = true
	c := &clock{t: t0}
	s := &Settler{Jobs: js, Owing: js, Quota: q, Blobs: bl, Bus: b, Clock: c}
	j, _ := js.GetJob(context.Background(), "j1")
	if err := s.Job(context.Background(), j); !errors.Is(err, ports.ErrUnavailable) {
		t.Fatalf("settling with the bucket down: %v", err)
	}
	if len(b.sent) != 1 || b.sent[0].EventID != ports.StageEventID("j1", ports.TopicFailed) || b.sent[0].Error != "engine failed" {
		t.Fatalf("events sent: %+v", b.sent)
	}
	if js.j.AnnounceDue || !js.j.CleanupDue {
		t.Fatalf("due after the outage began: announce %v, clean-up %v", js.j.AnnounceDue, js.j.CleanupDue)
	}
	c.t = t0.Add(time.Minute)
	s.Due(context.Background(), 30*time.Second) // still down
	bl.down = false
	if err := s.Due(context.Background(), 30*time.Second); err != nil {
		t.Fatal(err)
	}
	if js.j.CleanupDue || len(bl.deleted) != 1 || bl.deleted[0] != job.Prefix("j1") || len(b.sent) != 1 {
		t.Errorf("after the bucket is back: clean-up due %v, deleted %v, %d events", js.j.CleanupDue, bl.deleted, len(b.sent))
	}
}

// The bus and the database are down when the job ends: the event is
// published once they are back, by the sweep, however long it took; a job
// that just ended is left to whoever ended it.
func TestAnnouncementWaitsOutTheOutage(t *testing.T) {
	js := &jobs{j: failedJob()}
	b := &bus{}
	b.down = true
	c := &clock{t: t0}
	s := &Settler{Jobs: js, Owing: js, Quota: &quota{}, Blobs: &blobs{}, Bus: b, Clock: c}
	if err := s.Due(context.Background(), 30*time.Second); err != nil || b.calls != 0 {
		t.Fatalf("a job that just ended was swept: %v, %d publishes", err, b.calls)
	}
	for i := 1; i <= 8; i++ { // two minutes of sweeps
		c.t = t0.Add(time.Duration(i) * 15 * time.Second)
		s.Due(context.Background(), 30*time.Second)
	}
	if len(b.sent) != 0 || !js.j.AnnounceDue {
		t.Fatalf("sent %d while the bus was down; due %v", len(b.sent), js.j.AnnounceDue)
	}
	b.down, js.down = false, true // the bus is back, the database not yet: sent, not cleared
	s.Due(context.Background(), 30*time.Second)
	js.down = false
	s.Due(context.Background(), 30*time.Second)
	s.Due(context.Background(), 30*time.Second)
	if len(b.sent) != 2 || js.j.AnnounceDue {
		t.Errorf("sent %d (one again while the database could not record it), due %v", len(b.sent), js.j.AnnounceDue)
	}
}

// A revision completed while the previous announcement was in flight
// keeps its own.
func TestRevisionKeepsItsAnnouncement(t *testing.T) {
	j := job.New("j1", "a1", t0)
	j.Start(t0)
	j.Complete(t0)
	js := &jobs{j: *j}
	b := &bus{}
	s := &Settler{Jobs: js, Owing: js, Quota: &quota{}, Blobs: &blobs{}, Bus: b, Clock: &clock{t: t0}}
	snapshot := js.j
	js.j.Revise(t0.Add(time.Second)) // meanwhile
	if err := s.Job(context.Background(), &snapshot); err != nil {
		t.Fatal(err)
	}
	if !js.j.AnnounceDue || js.j.Revision != 1 {
		t.Errorf("revision 1 lost its announcement: due %v", js.j.AnnounceDue)
	}
	s.Job(context.Background(), &js.j)
	if len(b.sent) != 2 || b.sent[1].EventID != ports.RevisionEventID("j1", 1) || js.j.AnnounceDue {
		t.Errorf("events %+v, due %v", b.sent, js.j.AnnounceDue)
	}
}

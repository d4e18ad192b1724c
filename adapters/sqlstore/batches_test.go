package sqlstore

import (
	"reflect"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

func TestBatchesSQLite(t *testing.T)   { runBatches(t, sqliteBackend) }
func TestBatchesPostgres(t *testing.T) { runBatches(t, postgresBackend(t)) }

func runBatches(t *testing.T, b backend) {
	t.Run("BatchJobs", func(t *testing.T) { testBatchJobs(t, b) })
	t.Run("HeldJobs", func(t *testing.T) { testHeldJobs(t, b) })
	t.Run("Throughput", func(t *testing.T) { testThroughput(t, b) })
}

func testBatchJobs(t *testing.T, b backend) {
	s := newStore(t, b)
	var want []string
	for i, id := range []string{"b3", "b1", "b2"} { // made in this order, ids in another
		j := fullJob(id, "acc", t0.Add(time.Duration(i)*time.Millisecond))
		j.BatchID = "batch-1"
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		want = append(want, id)
	}
	other := fullJob("x", "other", t0)
	other.BatchID = "batch-1" // another account's job claiming the id
	alone := fullJob("alone", "acc", t0)
	for _, j := range []*job.Job{other, alone} {
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.BatchJobs(ctx, "acc", "batch-1")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, j := range got {
		ids = append(ids, j.ID)
		if j.BatchID != "batch-1" {
			t.Errorf("job %s batch %q", j.ID, j.BatchID)
		}
	}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("batch jobs %v, want %v in the order they were made", ids, want)
	}
	if got, _ := s.BatchJobs(ctx, "acc", ""); len(got) != 0 {
		t.Errorf("the empty batch id found %d jobs", len(got))
	}
}

func testHeldJobs(t *testing.T, b backend) {
	s := newStore(t, b)
	held := job.New("held", "acc", t0)
	until := t0.Add(time.Hour)
	if err := held.Hold(until); err != nil {
		t.Fatal(err)
	}
	free := job.New("free", "acc", t0)
	for _, j := range []*job.Job{held, free} {
		if err := s.CreateJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	got, _ := s.GetJob(ctx, "held")
	if got.HeldUntil == nil || !got.HeldUntil.Equal(until.Truncate(time.Microsecond)) || !got.Held() {
		t.Fatalf("held until %v, want %v", got.HeldUntil, until)
	}
	un, err := s.Unfinished(ctx)
	if err != nil || len(un) != 1 || un[0].ID != "free" {
		t.Errorf("unfinished = %v (%v): recovery must leave held jobs alone", un, err)
	}
	if hb, _ := s.HeldBefore(ctx, until); len(hb) != 0 {
		t.Errorf("held before the end of the hold: %d jobs", len(hb))
	}
	hb, err := s.HeldBefore(ctx, until.Add(time.Second))
	if err != nil || len(hb) != 1 || hb[0].ID != "held" {
		t.Fatalf("held after the hold: %v %v", hb, err)
	}
	if _, err := s.UpdateJob(ctx, "held", func(j *job.Job) error { return j.Confirm(t0.Add(time.Minute)) }); err != nil {
		t.Fatal(err)
	}
	if hb, _ := s.HeldBefore(ctx, until.Add(time.Second)); len(hb) != 0 {
		t.Errorf("a confirmed job is still held: %v", hb)
	}
	if un, _ := s.Unfinished(ctx); len(un) != 2 {
		t.Errorf("a confirmed job is not recovered: %d unfinished", len(un))
	}
}

func testThroughput(t *testing.T, b backend) {
	s := newStore(t, b)
	if m, err := s.Throughputs(ctx); err != nil || len(m) != 0 {
		t.Fatalf("fresh store: %v %v", m, err)
	}
	if err := s.RecordThroughput(ctx, "apertium", 1000, time.Second); err != nil {
		t.Fatal(err)
	}
	m, _ := s.Throughputs(ctx)
	if got := m["apertium"]; got.Calls != 1 || got.CharsPerSecond != 1000 {
		t.Fatalf("one call: %+v", got)
	}
	// Faster calls move the figure towards them.
	for i := 0; i < 100; i++ {
		if err := s.RecordThroughput(ctx, "apertium", 4000, time.Second); err != nil {
			t.Fatal(err)
		}
	}
	_ = s.RecordThroughput(ctx, "deepl", 500, 2*time.Second)
	m, _ = s.Throughputs(ctx)
	if got := m["apertium"]; got.Calls != 101 || got.CharsPerSecond < 3900 || got.CharsPerSecond > 4000 {
		t.Errorf("after 100 faster calls: %+v", got)
	}
	if got := m["deepl"]; got.CharsPerSecond != 250 {
		t.Errorf("deepl: %+v", got)
	}
}

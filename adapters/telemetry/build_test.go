package telemetry

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// dragoman_build_info names the build, and the job latency histogram
// measures acceptance to the terminal state, by outcome, once.
func TestBuildInfoAndJobLatency(t *testing.T) {
	Version, Commit = "v9.8.7", "abc123"
	defer func() { Version, Commit = "", "" }()
	m := NewMetrics()
	stores := map[string]interface {
		CreateJob(context.Context, *job.Job) error
		UpdateJob(context.Context, string, func(*job.Job) error) (*job.Job, error)
	}{"ok": m.Jobs(&memJobs{}), "bad": m.Jobs(&memJobs{})} // memJobs holds one job
	ctx := context.Background()
	accepted := time.Now().Add(-90 * time.Second)
	for id, store := range stores {
		if err := store.CreateJob(ctx, job.New(id, "a1", accepted)); err != nil {
			t.Fatal(err)
		}
	}
	end := accepted.Add(42 * time.Second)
	for i := 0; i < 2; i++ { // a redelivered finish observes nothing more
		for id, st := range map[string]job.Status{"ok": job.Completed, "bad": job.Failed} {
			_, _ = stores[id].UpdateJob(ctx, id, func(j *job.Job) error {
				if !j.Status.Terminal() {
					j.Status, j.CompletedAt = st, &end
				}
				return nil
			})
		}
	}
	out := scrape(t, m)
	for _, want := range []string{
		`dragoman_build_info{commit="abc123",goversion="` + runtime.Version() + `",version="v9.8.7"} 1`,
		`dragoman_job_duration_seconds_count{outcome="completed"} 1`,
		`dragoman_job_duration_seconds_count{outcome="failed"} 1`,
		`dragoman_job_duration_seconds_sum{outcome="completed"} 42`,
		`dragoman_job_duration_seconds_bucket{outcome="failed",le="30"} 0`,
		`dragoman_job_duration_seconds_bucket{outcome="failed",le="60"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

// In JSON, a duration is float seconds, not nanoseconds.
func TestJSONLogDurationsAreSeconds(t *testing.T) {
	var buf bytes.Buffer
	slog.New(NewLogHandler(&buf, "json", slog.LevelInfo)).Info("request", "duration", 1500*time.Millisecond)
	var l map[string]any
	if err := json.Unmarshal(buf.Bytes(), &l); err != nil || l["duration"] != 1.5 {
		t.Errorf("JSON line %s", buf.String())
	}
	buf.Reset()
	slog.New(NewLogHandler(&buf, "text", slog.LevelInfo)).Info("request", "duration", 1500*time.Millisecond)
	if !strings.Contains(buf.String(), "duration=1.5s") {
		t.Errorf("text line %s", buf.String())
	}
}

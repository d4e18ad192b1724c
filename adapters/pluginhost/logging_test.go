package pluginhost

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// recorder keeps slog records.
type recorder struct {
	mu   sync.Mutex
	recs []slog.Record
}

func (r *recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r *recorder) Handle(_ context.Context, rec slog.Record) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.recs = append(r.recs, rec)
	return nil
}
func (r *recorder) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *recorder) WithGroup(string) slog.Handler      { return r }

func (r *recorder) find(level slog.Level, msg string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rec := range r.recs {
		if rec.Level == level && strings.Contains(rec.Message, msg) {
			return true
		}
	}
	return false
}

// A plugin's sdk.Logger warnings reach the host's slog logger as warnings,
// while go-plugin's own start-up chatter stays out of an info-level log.
func TestPluginLogsReachSlog(t *testing.T) {
	rec := &recorder{}
	h, err := New(pluginDir, []string{"crashy"}, slog.New(levelFilter{rec, slog.LevelInfo}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	engines, err := h.Engines(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := engines[0].Provider.Translate(context.Background(), ports.TranslateRequest{Segments: []string{"__warn__"}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !rec.find(slog.LevelWarn, "asked to warn") {
		if time.Now().After(deadline) {
			t.Fatalf("plugin warning not relayed; got %d records", len(rec.recs))
		}
		time.Sleep(10 * time.Millisecond)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, r := range rec.recs {
		if r.Level < slog.LevelWarn {
			t.Errorf("chatter below warn reached the log: %s %q", r.Level, r.Message)
		}
	}
}

type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (f levelFilter) Enabled(_ context.Context, l slog.Level) bool { return l >= f.min }

package telemetry

import (
	"context"
	"io"
	"log/slog"
)

type jobIDKey struct{}

// WithJobID marks ctx as work on a job: log lines written with it (the
// slog *Context methods) carry job_id.
func WithJobID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, jobIDKey{}, id)
}

// JobID is the job ctx is about, "" if none.
func JobID(ctx context.Context) string {
	id, _ := ctx.Value(jobIDKey{}).(string)
	return id
}

// NewLogHandler is the service's slog handler: text (logfmt) or JSON
// lines on w at level. Lines logged with a job's context carry job_id.
// In JSON, durations are seconds as numbers (1.5, not slog's 1500000000
// nanoseconds), as log pipelines and Prometheus expect; text shows 1.5s.
func NewLogHandler(w io.Writer, format string, level slog.Leveler) slog.Handler {
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	if format == "json" {
		opts.ReplaceAttr = secondsForDurations
		h = slog.NewJSONHandler(w, opts)
	} else {
		h = slog.NewTextHandler(w, opts)
	}
	return contextHandler{h}
}

type contextHandler struct{ slog.Handler }

func (h contextHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := JobID(ctx); id != "" {
		has := false
		r.Attrs(func(a slog.Attr) bool {
			has = a.Key == "job_id"
			return !has
		})
		if !has {
			r.AddAttrs(slog.String("job_id", id))
		}
	}
	return h.Handler.Handle(ctx, r)
}

func (h contextHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return contextHandler{h.Handler.WithAttrs(as)}
}

func (h contextHandler) WithGroup(name string) slog.Handler {
	return contextHandler{h.Handler.WithGroup(name)}
}

// secondsForDurations writes a duration as float seconds.
func secondsForDurations(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		return slog.Float64(a.Key, a.Value.Duration().Seconds())
	}
	return a
}

package eventbus

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/ThreeDotsLabs/watermill"
)

// floorHandler drops records below min. watermill and nats-server log
// every message at Info/Debug; the service keeps them out of its logs
// below Warn.
type floorHandler struct {
	next slog.Handler
	min  slog.Level
}

func (h floorHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.next.Enabled(ctx, l)
}
func (h floorHandler) Handle(ctx context.Context, r slog.Record) error { return h.next.Handle(ctx, r) }
func (h floorHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return floorHandler{h.next.WithAttrs(a), h.min}
}
func (h floorHandler) WithGroup(n string) slog.Handler {
	return floorHandler{h.next.WithGroup(n), h.min}
}

// libraryLogger returns the slog logger the libraries write to.
func libraryLogger(base *slog.Logger, min slog.Level, component string) *slog.Logger {
	return slog.New(floorHandler{base.Handler(), min}).With("component", component)
}

func watermillLogger(l *slog.Logger) watermill.LoggerAdapter { return watermill.NewSlogLogger(l) }

// natsLogger adapts slog to nats-server's Logger interface.
type natsLogger struct{ l *slog.Logger }

func (n natsLogger) Noticef(f string, v ...any) { n.l.Info(fmt.Sprintf(f, v...)) }
func (n natsLogger) Warnf(f string, v ...any)   { n.l.Warn(fmt.Sprintf(f, v...)) }
func (n natsLogger) Fatalf(f string, v ...any)  { n.l.Error(fmt.Sprintf(f, v...)) }
func (n natsLogger) Errorf(f string, v ...any)  { n.l.Error(fmt.Sprintf(f, v...)) }
func (n natsLogger) Debugf(f string, v ...any)  { n.l.Debug(fmt.Sprintf(f, v...)) }
func (n natsLogger) Tracef(f string, v ...any)  { n.l.Debug(fmt.Sprintf(f, v...)) }

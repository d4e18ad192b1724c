package sdk

import (
	"log/slog"
	"os"
	"strings"
)

// stderr is the real standard error, kept before plugin.Serve swaps
// os.Stderr for a pipe whose output the host discards.
var stderr = os.Stderr

// Logger is a slog.Logger for plugin code. It writes hclog's JSON lines to
// stderr, which go-plugin relays to the host's logger with their level
// (plain stderr lines arrive only at debug level).
func Logger() *slog.Logger {
	return slog.New(slog.NewJSONHandler(stderr, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) > 0 {
				return a
			}
			switch a.Key {
			case slog.TimeKey:
				return slog.Attr{} // the host stamps its own time
			case slog.MessageKey:
				a.Key = "@message"
			case slog.LevelKey:
				a = slog.String("@level", strings.ToLower(a.Value.String()))
			}
			return a
		},
	}))
}

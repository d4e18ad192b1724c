package pluginhost

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sort"

	"github.com/hashicorp/go-hclog"
)

// newHCLogger routes go-plugin's hclog output (and the plugins' own
// structured logs, which go-plugin relays) into slog. go-plugin chats at
// debug and info level on every start and stop, so below warn it is only
// passed on when the slog logger itself wants debug output.
func newHCLogger(l *slog.Logger) hclog.Logger {
	level := hclog.Warn
	if l.Enabled(context.Background(), slog.LevelDebug) {
		level = hclog.Debug
	}
	return hclog.New(&hclog.LoggerOptions{
		Name:        "plugin",
		Level:       level,
		Output:      &slogSink{l: l},
		JSONFormat:  true,
		DisableTime: true,
	})
}

// slogSink turns hclog's JSON lines into slog records.
type slogSink struct{ l *slog.Logger }

func (s *slogSink) Write(p []byte) (int, error) {
	for _, line := range bytes.Split(p, []byte{'\n'}) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			s.l.Warn(string(line))
			continue
		}
		msg, _ := rec["@message"].(string)
		lvl, _ := rec["@level"].(string)
		attrs := make([]any, 0, 2*len(rec))
		keys := make([]string, 0, len(rec))
		for k := range rec {
			if k != "@message" && k != "@level" {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			attrs = append(attrs, slog.Any(k, rec[k]))
		}
		s.l.Log(context.Background(), slogLevel(lvl), msg, attrs...)
	}
	return len(p), nil
}

func slogLevel(hc string) slog.Level {
	switch hc {
	case "trace", "debug":
		return slog.LevelDebug
	case "info":
		return slog.LevelInfo
	case "warn":
		return slog.LevelWarn
	default:
		return slog.LevelError
	}
}

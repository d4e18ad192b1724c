package main

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"runtime/debug"

	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	apiproblem "github.com/dragoman-translate/dragoman/adapters/problem"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
)

// startupLog writes the lines serve prints as it starts, at info whatever
// --log-level says: sentences for people with --log-format text, and with
// json one JSON object each, like every other line of a JSON log.
type startupLog struct {
	w    io.Writer
	json *slog.Logger // nil in text mode
}

func newStartupLog(c *Config, w io.Writer) startupLog {
	s := startupLog{w: w}
	if c.LogFormat == "json" {
		s.json = slog.New(telemetry.NewLogHandler(w, "json", slog.LevelInfo))
	}
	return s
}

// say writes text for people, or msg with attrs as a JSON line.
func (s startupLog) say(text, msg string, attrs ...any) {
	if s.json != nil {
		s.json.Info(msg, attrs...)
		return
	}
	fmt.Fprintln(s.w, "dragoman: "+text)
}

// banner names what the started server listens on: the bound addresses,
// so that port 0 (any free port) serves scripts and tests.
func (s startupLog) banner(c *Config, bus *eventbus.Bus) {
	if c.Role == RoleWorker {
		s.say(fmt.Sprintf("worker, probes on https %s, data in %s", c.HTTPSAddr, c.DataDir),
			"serving", "role", c.Role, "https_addr", c.HTTPSAddr, "data_dir", c.DataDir)
	} else {
		s.say(fmt.Sprintf("%s, serving https on %s (http %s redirects), data in %s", c.Role, c.HTTPSAddr, orOff(c.HTTPAddr), c.DataDir),
			"serving", "role", c.Role, "https_addr", c.HTTPSAddr, "http_addr", c.HTTPAddr, "data_dir", c.DataDir)
	}
	if c.NATSURL == "" {
		s.say(fmt.Sprintf("events on %s (embedded NATS JetStream; topics in the README)", bus.URL()),
			"events", "nats_url", bus.URL(), "nats", "embedded")
	}
	s.say("metrics "+orOff(c.MetricsAddr), "metrics", "metrics_addr", c.MetricsAddr)
}

func orOff(s string) string {
	if s == "" {
		return "off"
	}
	return "on " + s
}

// probePaths are what a worker serves on HTTP: the probes, nothing else.
var probePaths = map[string]bool{httpapi.Prefix + "/health": true, httpapi.Prefix + "/ready": true}

// probesOnly passes GET and HEAD requests for the probes to h and answers
// everything else with a 404 problem.
func probesOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if probePaths[r.URL.Path] && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			h.ServeHTTP(w, r)
			return
		}
		apiproblem.Write(w, r, apiproblem.New(http.StatusNotFound, "a worker serves only "+httpapi.Prefix+"/health and "+httpapi.Prefix+"/ready"))
	})
}

// defaultMemoryLimit is the Go heap size past which the garbage collector
// works harder to give memory back (a soft limit: a job that needs more
// still gets it). Without it a large document leaves its heap resident for
// the next stage: the 50 MB text-heavy document of the README's
// Performance table peaked the server at 827–852 MB, and at 598 MB with
// this limit. GOMEMLIMIT, if set, is used instead.
const defaultMemoryLimit = 384 << 20

func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(defaultMemoryLimit)
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"testing"
)

// promtoolCheck lints the live /metrics with Prometheus's own promtool
// (Debian's prometheus package, in the Makefile's APT_PACKAGES): it must
// report nothing.
func promtoolCheck(t *testing.T, s *server) {
	t.Helper()
	bin, err := exec.LookPath("promtool")
	if err != nil {
		t.Fatal("promtool is not installed: `make deps` installs Debian's prometheus package")
	}
	resp, err := http.Get("http://" + s.metrics + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	cmd := exec.Command(bin, "check", "metrics")
	cmd.Stdin = bytes.NewReader(body)
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("promtool check metrics on the live /metrics: %v\n%s", err, out)
	}
}

// otelSpan is what the console exporter writes of a span, with the
// attribute values of every type and the resource.
type otelSpan struct {
	Name        string
	SpanKind    int
	SpanContext struct{ TraceID string }
	Attributes  []otelAttr
	Resource    []otelAttr
}

type otelAttr struct {
	Key   string
	Value struct{ Value any }
}

func attrsOf(list []otelAttr) map[string]any {
	m := map[string]any{}
	for _, a := range list {
		m[a.Key] = a.Value.Value
	}
	return m
}

// checkServerSpan finds the job's submission span, made by the
// OpenTelemetry HTTP instrumentation, and checks the semantic
// conventions' attributes and the build's service.version.
func checkServerSpan(t *testing.T, path, trace string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	for dec.More() {
		var sp otelSpan
		if err := dec.Decode(&sp); err != nil {
			t.Fatal(err)
		}
		if sp.Name != "POST /v1/translate" || sp.SpanContext.TraceID != trace {
			continue
		}
		a := attrsOf(sp.Attributes)
		for k, v := range map[string]any{"http.request.method": "POST", "http.route": "/v1/translate",
			"http.response.status_code": 202.0, "url.scheme": "https", "server.address": "localhost"} {
			if a[k] != v {
				t.Errorf("submission span %s = %v, want %v", k, a[k], v)
			}
		}
		if sp.SpanKind != 2 { // trace.SpanKindServer
			t.Errorf("submission span kind %d, want server", sp.SpanKind)
		}
		r := attrsOf(sp.Resource)
		if v, _ := r["service.version"].(string); v == "" || v == "1.0.0" {
			t.Errorf("service.version %q is not the build's version", v)
		}
		return
	}
	t.Errorf("no POST /v1/translate span in trace %s", trace)
}

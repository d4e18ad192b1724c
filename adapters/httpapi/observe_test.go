package httpapi

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestObserveRequestIDsRoutesAndAccessLog(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/jobs/{job_id}", func(w http.ResponseWriter, r *http.Request) {
		NoteAccount(r.Context(), "acct-1")
		_, _ = w.Write([]byte("hello"))
	})
	var buf bytes.Buffer
	type seen struct {
		route, method string
		status        int
	}
	var got []seen
	h := Observe(mux, Observation{
		Access: slog.New(slog.NewJSONHandler(&buf, nil)),
		Metrics: func(route, method string, status int, _ time.Duration) {
			got = append(got, seen{route, method, status})
		},
	})

	req := httptest.NewRequest("GET", "/v1/jobs/123?secret=x", nil)
	req.Header.Set(RequestIDHeader, "client-id.1")
	req.Header.Set("X-API-Key", "dgm_secret")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Header().Get(RequestIDHeader) != "client-id.1" {
		t.Errorf("echoed %q", rec.Header().Get(RequestIDHeader))
	}

	forged := httptest.NewRequest("GET", "/nowhere", nil)
	forged.Header.Set(RequestIDHeader, "x\" level=ERROR msg=forged")
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, forged)
	if id := rec.Header().Get(RequestIDHeader); strings.Contains(id, " ") || len(id) != 36 {
		t.Errorf("a forged id was kept: %q", id)
	}

	want := []seen{{"/v1/jobs/{job_id}", "GET", 200}, {"unmatched", "GET", 404}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("metrics saw %v, want %v", got, want)
	}
	if strings.Contains(buf.String(), "dgm_secret") || strings.Contains(buf.String(), "secret=x") {
		t.Errorf("the access log holds a key or a query: %s", buf.String())
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(buf.String(), "\n", 2)[0]), &line); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"method": "GET", "route": "/v1/jobs/{job_id}", "status": 200.0, "bytes": 5.0,
		"account_id": "acct-1", "request_id": "client-id.1", "job_id": "123"} {
		if line[k] != v {
			t.Errorf("access log %s = %v, want %v", k, line[k], v)
		}
	}
	if _, ok := line["duration"]; !ok {
		t.Error("access log lacks duration")
	}
}

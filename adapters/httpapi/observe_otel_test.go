package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/dragoman-translate/dragoman/core/service"
)

// The server spans and request metrics are the OpenTelemetry contrib
// instrumentation's, read back with the SDK's in-memory exporter and a
// manual metric reader: the semantic conventions' attributes, the route
// the mux matched, the caller's trace joined, the access line carrying
// the trace id.
func TestObserveUsesTheOpenTelemetryHTTPConventions(t *testing.T) {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	var access bytes.Buffer
	h := Observe(New(service.UseCases{}, nil).Handler(), Observation{
		Access: slog.New(slog.NewJSONHandler(&access, nil)), Tracing: tp, Meter: mp, ServerName: "dragoman.example.com",
	})
	srv := httptest.NewTLSServer(h)
	defer srv.Close()

	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: trace.TraceID{1, 2, 3}, SpanID: trace.SpanID{4, 5, 6}, TraceFlags: trace.FlagsSampled})
	req, _ := http.NewRequest("GET", srv.URL+"/v1/problems/quota_exhausted", nil)
	otel.GetTextMapPropagator().Inject(trace.ContextWithSpanContext(context.Background(), parent), propagation.HeaderCarrier(req.Header))
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	resp, err = srv.Client().Post(srv.URL+"/v1/health", "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()

	got := spans.GetSpans()
	if len(got) != 2 {
		t.Fatalf("%d spans, want 2", len(got))
	}
	want := []struct {
		name   string
		status int64
		route  string
	}{{"GET /v1/problems/{code}", 200, "/v1/problems/{code}"}, {"POST", 405, ""}}
	for i, sp := range got {
		attrs := map[attribute.Key]attribute.Value{}
		for _, a := range sp.Attributes {
			attrs[a.Key] = a.Value
		}
		if sp.Name != want[i].name || sp.SpanKind != trace.SpanKindServer {
			t.Errorf("span %d: %q kind %v, want %q server", i, sp.Name, sp.SpanKind, want[i].name)
		}
		if r, ok := attrs["http.route"]; want[i].route == "" && ok {
			t.Errorf("span %q: http.route %v for a request no route took", sp.Name, r.AsString())
		}
		for k, v := range map[attribute.Key]any{
			"http.request.method": strings.Fields(want[i].name)[0], "http.route": want[i].route,
			"http.response.status_code": want[i].status, "url.scheme": "https", "server.address": "dragoman.example.com",
		} {
			if a, ok := attrs[k]; (!ok || a.AsInterface() != v) && !(k == "http.route" && v == "") {
				t.Errorf("span %q: %s = %v, want %v", sp.Name, k, a.AsInterface(), v)
			}
		}
		if attrs["dragoman.request_id"].AsString() == "" || attrs["url.path"].AsString() == "" {
			t.Errorf("span %q lacks its request id or path: %v", sp.Name, sp.Attributes)
		}
	}
	if got[0].Parent.TraceID() != parent.TraceID() || got[0].Parent.SpanID() != parent.SpanID() {
		t.Errorf("the caller's traceparent was not joined: parent %v", got[0].Parent)
	}
	if !strings.Contains(access.String(), `"trace_id":"`+parent.TraceID().String()+`"`) {
		t.Errorf("the access line lacks the trace id: %s", access.String())
	}

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "http.server.request.duration" || m.Unit != "s" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Histogram[float64]).DataPoints {
				route, _ := dp.Attributes.Value("http.route")
				code, _ := dp.Attributes.Value("http.response.status_code")
				if route.AsString() == "/v1/problems/{code}" && code.AsInt64() == 200 && dp.Count == 1 {
					found = true
				}
			}
		}
	}
	if !found {
		b, _ := json.Marshal(rm.ScopeMetrics)
		t.Errorf("no http.server.request.duration point for the route: %s", b)
	}
}

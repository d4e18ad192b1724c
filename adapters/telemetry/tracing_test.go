package telemetry

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
)

func TestTracingIsOffUnlessAskedFor(t *testing.T) {
	prev := otel.GetTracerProvider()
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	for _, env := range [][2]string{{"OTEL_TRACES_EXPORTER", ""}, {"OTEL_TRACES_EXPORTER", "none"}} {
		t.Setenv(env[0], env[1])
		tr, err := SetupTracing(context.Background(), "test")
		if err != nil || tr.Enabled {
			t.Errorf("%s=%q: enabled %v, err %v", env[0], env[1], tr != nil && tr.Enabled, err)
		}
	}
	t.Setenv("OTEL_TRACES_EXPORTER", "jaeger")
	if _, err := SetupTracing(context.Background(), "test"); err == nil || !strings.Contains(err.Error(), "jaeger") {
		t.Errorf("an unknown exporter: %v", err)
	}
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	t.Setenv("OTEL_SDK_DISABLED", "true")
	if tr, _ := SetupTracing(context.Background(), "test"); tr.Enabled {
		t.Error("OTEL_SDK_DISABLED=true did not turn tracing off")
	}
}

func TestConsoleExporterWritesToTheFile(t *testing.T) {
	prev := otel.GetTracerProvider()
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	path := filepath.Join(t.TempDir(), "spans.json")
	t.Setenv("OTEL_TRACES_EXPORTER", "none,console")
	t.Setenv(EnvTracesFile, path)
	t.Setenv("OTEL_SERVICE_NAME", "dragoman-test")
	tr, err := SetupTracing(context.Background(), "1.2.3")
	if err != nil || !tr.Enabled {
		t.Fatalf("enabled %v, err %v", tr != nil && tr.Enabled, err)
	}
	_, span := tr.Tracer().Start(context.Background(), "stage convert")
	span.End()
	b, err := os.ReadFile(path) // written when the span ended, before any flush
	if err != nil || !strings.Contains(string(b), `"Name":"stage convert"`) || !strings.Contains(string(b), "dragoman-test") {
		t.Errorf("trace file: %v %s", err, b)
	}
	if err := tr.Shutdown(context.Background()); err != nil {
		t.Error(err)
	}
}

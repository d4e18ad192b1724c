package telemetry

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// EnvTracesFile names a file the console exporter writes to instead of
// standard output (one JSON span after another).
const EnvTracesFile = "DRAGOMAN_TRACES_FILE"

// TracerName names Dragoman's own spans.
const TracerName = "github.com/dragoman-translate/dragoman"

// Tracing is the process's OpenTelemetry set-up.
type Tracing struct {
	Provider trace.TracerProvider
	Enabled  bool
	shutdown func(context.Context) error
}

// Tracer is the tracer for Dragoman's spans.
func (t *Tracing) Tracer() trace.Tracer { return t.Provider.Tracer(TracerName) }

// Shutdown flushes and stops the exporter.
func (t *Tracing) Shutdown(ctx context.Context) error {
	if t.shutdown == nil {
		return nil
	}
	return t.shutdown(ctx)
}

// SetupTracing configures tracing from the standard OpenTelemetry
// variables and installs it as the global provider and (W3C trace
// context) propagator. Tracing is off unless asked for:
//
//	OTEL_SDK_DISABLED=true                 off, whatever else is set
//	OTEL_TRACES_EXPORTER=none (or unset)   off, unless an OTLP endpoint is set
//	OTEL_TRACES_EXPORTER=otlp              OTLP to OTEL_EXPORTER_OTLP_[TRACES_]ENDPOINT,
//	                                       protocol OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL
//	                                       (http/protobuf, the default, or grpc)
//	OTEL_TRACES_EXPORTER=console           JSON spans on standard output, or
//	                                       appended to the file DRAGOMAN_TRACES_FILE
//
// OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES and OTEL_TRACES_SAMPLER
// work as the specification says; the service name defaults to dragoman.
func SetupTracing(ctx context.Context, version string) (*Tracing, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	off := &Tracing{Provider: noop.NewTracerProvider()}
	if v, _ := strconv.ParseBool(os.Getenv("OTEL_SDK_DISABLED")); v {
		return off, nil
	}
	kinds := strings.TrimSpace(strings.ToLower(os.Getenv("OTEL_TRACES_EXPORTER")))
	if kinds == "" && (os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "") {
		kinds = "otlp"
	}
	var (
		opts    []sdktrace.TracerProviderOption
		closers []io.Closer
	)
	closeAll := func() {
		for _, c := range closers {
			_ = c.Close()
		}
	}
	for _, kind := range strings.Split(kinds, ",") { // a list, as the specification allows
		opt, closer, err := exporter(ctx, strings.TrimSpace(kind))
		if closer != nil {
			closers = append(closers, closer)
		}
		if err != nil {
			closeAll()
			return nil, err
		}
		if opt != nil {
			opts = append(opts, opt)
		}
	}
	if len(opts) == 0 {
		return off, nil
	}
	res, err := resource.New(ctx,
		resource.WithAttributes(attribute.String("service.name", "dragoman"), attribute.String("service.version", version)),
		resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil && res == nil {
		closeAll()
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(append(opts, sdktrace.WithResource(res))...)
	otel.SetTracerProvider(tp)
	return &Tracing{Provider: tp, Enabled: true, shutdown: func(ctx context.Context) error {
		err := tp.Shutdown(ctx)
		for _, c := range closers {
			err = errors.Join(err, c.Close())
		}
		return err
	}}, nil
}

// exporter builds one OTEL_TRACES_EXPORTER entry: nil for none.
func exporter(ctx context.Context, kind string) (sdktrace.TracerProviderOption, io.Closer, error) {
	switch kind {
	case "", "none":
		return nil, nil, nil
	case "otlp":
		proto := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
		if proto == "" {
			proto = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
		}
		var (
			exp sdktrace.SpanExporter
			err error
		)
		switch proto {
		case "", "http/protobuf":
			exp, err = otlptracehttp.New(ctx)
		case "grpc":
			exp, err = otlptracegrpc.New(ctx)
		default:
			return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q: want grpc or http/protobuf", proto)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("trace exporter otlp: %w", err)
		}
		return sdktrace.WithBatcher(exp), nil, nil
	case "console":
		w := io.Writer(os.Stdout)
		var closer io.Closer
		if path := os.Getenv(EnvTracesFile); path != "" {
			f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", EnvTracesFile, err)
			}
			w, closer = f, f
		}
		exp, err := stdouttrace.New(stdouttrace.WithWriter(w))
		if err != nil {
			return nil, closer, fmt.Errorf("trace exporter console: %w", err)
		}
		return sdktrace.WithSyncer(exp), closer, nil // every span is written when it ends
	}
	return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q: want otlp, console or none (or a comma-separated list)", kind)
}

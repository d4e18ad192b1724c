package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.uber.org/fx"
	"google.golang.org/grpc"
	"google.golang.org/grpc/stats"

	"github.com/dragoman-translate/dragoman/adapters/eventbus"
	"github.com/dragoman-translate/dragoman/adapters/httpapi"
	"github.com/dragoman-translate/dragoman/adapters/httpguard"
	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/adapters/preview"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/telemetry"
	"github.com/dragoman-translate/dragoman/core/pipeline"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// defaultMetricsAddr is loopback, so metrics are not public unless asked.
const defaultMetricsAddr = "127.0.0.1:9464"

// accessLog is the logger of the one line per HTTP request; it logs at
// info whatever --log-level says.
type accessLog struct{ *slog.Logger }

func newAccessLog(c *Config, stderr io.Writer) accessLog {
	return accessLog{slog.New(telemetry.NewLogHandler(stderr, c.LogFormat, slog.LevelInfo))}
}

// newTracing sets OpenTelemetry up from the OTEL_* variables; its stop
// hook, appended first, runs last and flushes every span.
func newTracing(lc fx.Lifecycle) (*telemetry.Tracing, error) {
	t, err := telemetry.SetupTracing(context.Background(), telemetry.Build().Version)
	if err != nil {
		return nil, err
	}
	lc.Append(fx.StopHook(t.Shutdown))
	return t, nil
}

// pluginOptions report plugin starts and crashes to the metrics and
// trace every gRPC call into a plugin.
func pluginOptions(m *telemetry.Metrics, t *telemetry.Tracing) []pluginhost.Option {
	opts := []pluginhost.Option{pluginhost.WithObserver(m)}
	if t.Enabled {
		opts = append(opts, pluginhost.WithGRPCDialOptions(grpc.WithStatsHandler(
			otelgrpc.NewClientHandler(otelgrpc.WithTracerProvider(t.Provider), otelgrpc.WithFilter(tracedPluginCall)))))
	}
	return opts
}

// tracedPluginCall keeps the spans of Dragoman's plugin calls but not of
// the periodic health checks or go-plugin's own services (broker, stdio),
// which would each make a trace of their own.
func tracedPluginCall(info *stats.RPCTagInfo) bool {
	return strings.HasPrefix(info.FullMethodName, "/dragoman.") && !strings.HasSuffix(info.FullMethodName, "/Health")
}

// instrumentService counts accepted jobs, rate-limit refusals and PDF
// renditions (downloads and previews).
func instrumentService(uc service.UseCases, m *telemetry.Metrics) service.UseCases {
	uc.Jobs.Jobs = m.Jobs(uc.Jobs.Jobs)
	uc.Accounts.Limiter = m.Limiter(uc.Accounts.Limiter)
	uc.Sessions.Limiter = m.Limiter(uc.Sessions.Limiter)
	if uc.Documents.PDF != nil {
		uc.Documents.PDF = m.PDFRenderer(uc.Documents.PDF)
	}
	if r, ok := uc.Documents.Pages.(*preview.Renderer); ok && r.PDF != nil {
		r.PDF = m.PDFRenderer(r.PDF)
	}
	return uc
}

// instrumentPipeline puts the metrics and the stage spans around the
// pipeline's ports.
func instrumentPipeline(p *pipeline.Pipeline, m *telemetry.Metrics, t *telemetry.Tracing, wh *telemetry.Webhooks) *pipeline.Pipeline {
	p.Jobs = m.Jobs(p.Jobs)
	p.Bus = m.Bus(p.Bus, t.Tracer())
	if p.Converter != nil {
		if c, ok := p.Converter.(sdk.ConcurrencyReporter); ok { // the plugin host's, as the plugins said
			m.SetLibreOfficePoolSize(c.MaxConcurrent())
		}
		p.Converter = m.Converter(p.Converter)
	}
	if p.PDF != nil {
		p.PDF = m.PDFRenderer(p.PDF)
	}
	if p.Notifier != nil {
		p.Notifier = wh.Notifier(p.Notifier)
	}
	if tr := p.Translator; tr != nil {
		tr.Engines = m.Engines(tr.Engines)
		tr.TM = m.TM(tr.TM)
		tr.Retryable = m.CountRetries(tr.Retryable)
	}
	return p
}

// runMetrics serves /metrics on its own plain-HTTP listener.
func runMetrics(lc fx.Lifecycle, c *Config, m *telemetry.Metrics, st *sqlstore.Store, log *slog.Logger) {
	m.WatchQueues(st, systemClock{})
	if c.MetricsAddr == "" {
		return
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	// GET /metrics reads no body, so the server reads what is left of one
	// (up to 256 KB) before it answers: bounded as on the other ports.
	srv := &http.Server{Handler: httpguard.Bodies(mux, c.bodyLimits(), refuse), ReadHeaderTimeout: headerTimeout}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln, err := listen(c.MetricsAddr)
			if err != nil {
				return portTaken(err, "metrics", "metrics-addr", c.MetricsAddr)
			}
			go func() { _ = srv.Serve(ln) }()
			// The banner names the bound address: port 0 is any free port.
			c.MetricsAddr = ln.Addr().String()
			log.Info("serving metrics", "addr", c.MetricsAddr)
			return nil
		},
		OnStop: srv.Shutdown,
	})
}

// wireReadiness gives GET /v1/ready its checks. Readiness says what this
// process can do: an api process stores the jobs it accepts while the
// event bus is down (the workers' recovery publishes them once it is
// back), so the bus is advisory there; a process that runs the stages
// needs it.
func wireReadiness(c *Config, api *httpapi.API, st *sqlstore.Store, bus *eventbus.Bus, blobs ports.BlobStore, plugins *pluginhost.Host) {
	checks := []httpapi.ReadinessCheck{
		{Name: "database", Check: st.Ping},
		{Name: "bus", Check: bus.Ping, Advisory: !c.runsStages()},
		{Name: "plugins", Check: plugins.Ready},
	}
	if b, ok := blobs.(interface{ Check(context.Context) error }); ok {
		checks = append(checks, httpapi.ReadinessCheck{Name: "blobs", Check: b.Check})
	}
	api.SetReadiness(checks...)
}

// observed wraps the API with request ids, the access log, and the
// OpenTelemetry HTTP instrumentation (spans and request metrics), whose
// server.address is the public URL's host.
func observed(h http.Handler, c *Config, m *telemetry.Metrics, t *telemetry.Tracing, access accessLog) http.Handler {
	server := ""
	if u, err := url.Parse(c.PublicURL); err == nil {
		server = u.Host
	}
	return httpapi.Observe(h, httpapi.Observation{Access: access.Logger, Tracing: t.Provider, Meter: m.MeterProvider(),
		ServerName: server, Metrics: m.ObserveRequest})
}

// observeModule is the observability part of the service graph.
func observeModule(c *Config, stderr io.Writer) fx.Option {
	return fx.Options(
		fx.Provide(
			telemetry.NewMetrics,
			newTracing,
			func(m *telemetry.Metrics, t *telemetry.Tracing) *telemetry.Webhooks { return m.NewWebhooks(t.Tracer()) },
			func() accessLog { return newAccessLog(c, stderr) },
		),
		fx.Decorate(instrumentService, instrumentPipeline),
		fx.Invoke(runMetrics, wireReadiness),
	)
}

// Package telemetry makes Dragoman observable: Prometheus metrics served
// on their own listener, OpenTelemetry traces, and the slog handler that
// puts job and request ids on log lines. The core knows nothing of it:
// the metrics are taken by decorators around the core's ports (job store,
// engines, translation memory, usage, rate limiter, event bus, webhook
// queue, converter) that app/ wires in with fx.
package telemetry

import (
	"net/http"
	"time"

	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/metric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Namespace prefixes every Dragoman metric.
const Namespace = "dragoman"

// Metrics holds every metric family the service exports.
type Metrics struct {
	reg *prometheus.Registry

	meter *sdkmetric.MeterProvider

	jobsAccepted  *prometheus.CounterVec
	jobDuration   *prometheus.HistogramVec
	jobsCompleted *prometheus.CounterVec
	jobsFailed    *prometheus.CounterVec
	stageDuration *prometheus.HistogramVec
	stageErrors   *prometheus.CounterVec

	engineCalls   *prometheus.CounterVec
	engineChars   *prometheus.CounterVec
	engineErrors  *prometheus.CounterVec
	engineRetries *prometheus.CounterVec
	engineLatency *prometheus.HistogramVec

	tmHits    prometheus.Counter
	tmMisses  prometheus.Counter
	words     prometheus.Counter
	refusals  *prometheus.CounterVec
	webhooks  *prometheus.CounterVec
	whLatency *prometheus.HistogramVec

	pluginStarts   *prometheus.CounterVec
	pluginCrashes  *prometheus.CounterVec
	pluginRestarts *prometheus.CounterVec

	loPoolSize   prometheus.Gauge
	loBusy       prometheus.Gauge
	convDuration *prometheus.HistogramVec
}

// durations are histogram buckets for work from milliseconds to minutes.
var durations = []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 120, 300}

// jobDurations are histogram buckets for whole jobs: a second to hours.
var jobDurations = []float64{.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200}

// NewMetrics registers every family, with the Go runtime and process
// collectors, in a registry of its own.
func NewMetrics() *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := factory{reg}
	m := &Metrics{reg: reg, meter: newMeterProvider(reg)}
	b := Build()
	f.gauge("build_info", "The running build: always 1, with its version, Go version and commit as labels.",
		"version", "goversion", "commit").WithLabelValues(b.Version, b.GoVersion, b.Commit).Set(1)
	m.jobDuration = f.histogram("job_duration_seconds", "Jobs from acceptance to their end, by outcome (completed, failed); observed by the process that records the end (a worker in scale-out, the API for a cancellation).", jobDurations, "outcome")
	m.jobsAccepted = f.counter("jobs_accepted_total", "Jobs accepted, by document format and requested engine.", "format", "engine")
	m.jobsCompleted = f.counter("jobs_completed_total", "Jobs completed, by document format and the engine that translated them.", "format", "engine")
	m.jobsFailed = f.counter("jobs_failed_total", "Jobs failed, by document format, engine and reason (cancelled, quota, bad_document, unsupported, no_engine, engine, attempts, retries, other).", "format", "engine", "reason")
	m.stageDuration = f.histogram("stage_duration_seconds", "Time a pipeline stage handler took for one event, by stage (convert, extract, translate, assemble, layout, finish, notify_*).", durations, "stage")
	m.stageErrors = f.counter("stage_errors_total", "Stage handler runs that returned an error (the event is redelivered), by stage.", "stage")
	m.engineCalls = f.counter("engine_calls_total", "Batches sent to a translation engine.", "engine")
	m.engineChars = f.counter("engine_characters_sent_total", "Characters (of tagged segment text) sent to a translation engine.", "engine")
	m.engineErrors = f.counter("engine_errors_total", "Engine calls that returned an error.", "engine")
	m.engineRetries = f.counter("engine_retries_total", "Engine calls retried by the host after a plugin crash.", "engine")
	m.engineLatency = f.histogram("engine_call_duration_seconds", "Latency of one engine call (one batch).", durations, "engine")
	m.tmHits = f.plainCounter("translation_memory_hits_total", "Segments found in the translation memory (not sent to an engine).")
	m.tmMisses = f.plainCounter("translation_memory_misses_total", "Segments looked up in the translation memory and not found.")
	m.words = f.plainCounter("words_charged_total", "Words charged: the words of completed jobs.")
	m.refusals = f.counter("refusals_total", "Requests and jobs refused by a limit: kind quota (submission refused with 402, or job failed at extraction) or rate_limit (429).", "kind", "at")
	m.webhooks = f.counter("webhook_attempts_total", "Webhook delivery attempts, by outcome: succeeded, retrying (failed, another attempt is due) or abandoned (failed, no attempt left).", "outcome")
	m.whLatency = f.histogram("webhook_delivery_duration_seconds", "Webhook delivery attempt latency, connection to last response byte, by outcome.", durations, "outcome")
	m.pluginStarts = f.counter("plugin_starts_total", "Plugin processes started, by kind and name.", "kind", "plugin")
	m.pluginCrashes = f.counter("plugin_crashes_total", "Plugin processes found dead or unwell (exited, connection lost, failed health check).", "kind", "plugin")
	m.pluginRestarts = f.counter("plugin_restarts_total", "Plugin processes started again after the first start.", "kind", "plugin")
	m.loPoolSize = f.plainGauge("libreoffice_pool_size", "The most LibreOffice instances the converter plugin runs at once (DRAGOMAN_LIBREOFFICE_POOL_SIZE); it starts them as documents arrive and stops idle ones, so fewer may be running. As the converter plugin reports it; 0 without the converter or with one that does not say.")
	m.loBusy = f.plainGauge("libreoffice_busy_instances", "Conversions and PDF renditions in progress (each occupies one LibreOffice instance).")
	m.convDuration = f.histogram("conversion_duration_seconds", "Time to convert a document with LibreOffice, by source format, target (to: docx, or pdf for a PDF rendition) and outcome (ok, error).", durations, "format", "to", "outcome")
	for _, r := range [][2]string{{"quota", "submit"}, {"quota", "extract"}, {"rate_limit", "request"}} {
		m.refusals.WithLabelValues(r[0], r[1]).Add(0)
	}
	return m
}

// Registry is where the families live, for more collectors.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// MeterProvider records OpenTelemetry metrics (the HTTP server
// instrumentation's) into the registry, named by the Prometheus
// translation of their semantic-convention names with the dragoman_
// prefix: http.server.request.duration is
// dragoman_http_server_request_duration_seconds.
func (m *Metrics) MeterProvider() metric.MeterProvider { return m.meter }

func newMeterProvider(reg *prometheus.Registry) *sdkmetric.MeterProvider {
	exp, err := otelprom.New(otelprom.WithRegisterer(reg), otelprom.WithNamespace(Namespace),
		otelprom.WithoutScopeInfo(), otelprom.WithoutTargetInfo())
	if err != nil { // only for a registry that refuses the collector: a programming error
		panic(err)
	}
	return sdkmetric.NewMeterProvider(sdkmetric.WithReader(exp))
}

// ObserveRequest counts what the HTTP metrics cannot tell apart
// (httpapi's observer): submissions refused for want of quota.
func (m *Metrics) ObserveRequest(_, _ string, status int, _ time.Duration) {
	if status == http.StatusPaymentRequired {
		m.refusals.WithLabelValues("quota", "submit").Inc()
	}
	// 429 is counted by the limiter decorator, which knows the cause.
}

// SetLibreOfficePoolSize records the converter's pool size.
func (m *Metrics) SetLibreOfficePoolSize(n int) { m.loPoolSize.Set(float64(n)) }

// PluginStarted counts a plugin process start; restart says it is not the
// first one of that plugin.
func (m *Metrics) PluginStarted(kind, name string, restart bool) {
	m.pluginStarts.WithLabelValues(kind, name).Inc()
	m.pluginCrashes.WithLabelValues(kind, name).Add(0)
	if restart {
		m.pluginRestarts.WithLabelValues(kind, name).Inc()
	} else {
		m.pluginRestarts.WithLabelValues(kind, name).Add(0)
	}
}

// PluginCrashed counts a plugin process found dead or unwell.
func (m *Metrics) PluginCrashed(kind, name string) { m.pluginCrashes.WithLabelValues(kind, name).Inc() }

type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) plainCounter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: Namespace, Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

func (f factory) plainGauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: Namespace, Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) histogram(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Namespace: Namespace, Name: name, Help: help, Buckets: buckets}, labels)
	f.reg.MustRegister(h)
	return h
}

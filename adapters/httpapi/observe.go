package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	metricnoop "go.opentelemetry.io/otel/metric/noop"
	semconv "go.opentelemetry.io/otel/semconv/v1.43.0"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"
)

// RequestIDHeader carries a request's id: taken from the client when it
// sends a reasonable one, generated otherwise, and always echoed.
const RequestIDHeader = "X-Request-ID"

// RequestObserver is told about every request served (the metrics that
// are Dragoman's own, such as refusals; the HTTP server metrics come from
// the OpenTelemetry instrumentation).
type RequestObserver func(route, method string, status int, d time.Duration)

// Observation is what Observe does around every request.
type Observation struct {
	// Access gets one line per request; nil: no access log.
	Access *slog.Logger
	// Tracing gives a server span per request, under the caller's trace
	// context (traceparent) if it sent one; nil: none.
	Tracing trace.TracerProvider
	// Meter records the OpenTelemetry HTTP server metrics
	// (http.server.request.duration and the body sizes); nil: none.
	Meter metric.MeterProvider
	// ServerName is server.address on spans and metrics (the public
	// host), so a client's Host header cannot add label values.
	ServerName string
	// Metrics is told the route, method, status and duration; nil: none.
	Metrics RequestObserver
}

// requestInfo collects, while a request is handled, what the access log
// line says about it; the handlers deeper down fill it in.
type requestInfo struct {
	mu        sync.Mutex
	id        string
	accountID string
	jobID     string
}

type requestInfoKey struct{}

func infoOf(ctx context.Context) *requestInfo {
	ri, _ := ctx.Value(requestInfoKey{}).(*requestInfo)
	return ri
}

// RequestID is the id of the request ctx belongs to, "" outside one.
func RequestID(ctx context.Context) string {
	if ri := infoOf(ctx); ri != nil {
		return ri.id
	}
	return ""
}

// NoteAccount records the authenticated account for the access log (the
// API after its key check, the dashboard after its session check).
func NoteAccount(ctx context.Context, id string) {
	if ri := infoOf(ctx); ri != nil {
		ri.mu.Lock()
		ri.accountID = id
		ri.mu.Unlock()
	}
}

// noteJob records the job a request created or read.
func noteJob(ctx context.Context, id string) {
	if ri := infoOf(ctx); ri != nil {
		ri.mu.Lock()
		ri.jobID = id
		ri.mu.Unlock()
	}
	trace.SpanFromContext(ctx).SetAttributes(attribute.String("dragoman.job_id", id))
}

// Observe wraps h with request ids, the OpenTelemetry contrib HTTP
// instrumentation (otelhttp: a server span per request and the HTTP
// server metrics, with the semantic conventions' attributes), and an
// access log line per request. The log line never holds keys, secrets,
// query strings or bodies: method, route, status, bytes, duration, account
// id, request id, the job id when there is one and the trace id.
func Observe(h http.Handler, o Observation) http.Handler {
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		ri := &requestInfo{id: requestID(r.Header.Get(RequestIDHeader))}
		w.Header().Set(RequestIDHeader, ri.id)
		ctx := context.WithValue(r.Context(), requestInfoKey{}, ri)
		span := trace.SpanFromContext(ctx)
		span.SetAttributes(attribute.String("dragoman.request_id", ri.id))
		rw := &recorder{ResponseWriter: w}
		req := r.WithContext(ctx)
		h.ServeHTTP(rw, req)
		d := time.Since(began)
		// The mux set the matched pattern on the copy: hand it out to the
		// instrumentation, which names the span and labels the metrics
		// with it (http.route). The catch-all "/" (404, 405) is no route.
		route := routeOf(req)
		if route != "unmatched" {
			r.Pattern = req.Pattern
			span.SetAttributes(semconv.HTTPRoute(httpRoute(req.Pattern)))
		}
		if ri.jobID == "" {
			if id := req.PathValue("job_id"); id != "" {
				noteJob(ctx, id)
			} else if loc := rw.Header().Get("Location"); strings.HasPrefix(loc, Prefix+"/jobs/") {
				noteJob(ctx, strings.TrimPrefix(loc, Prefix+"/jobs/")) // a job just accepted
			}
		}
		status := rw.status
		if status == 0 {
			status = http.StatusOK
		}
		if o.Metrics != nil {
			o.Metrics(route, r.Method, status, d)
		}
		if o.Access != nil {
			ri.mu.Lock()
			attrs := []slog.Attr{
				slog.String("method", r.Method), slog.String("route", route), slog.Int("status", status),
				slog.Int64("bytes", rw.bytes), slog.Duration("duration", d),
				slog.String("account_id", ri.accountID), slog.String("request_id", ri.id),
			}
			if ri.jobID != "" {
				attrs = append(attrs, slog.String("job_id", ri.jobID))
			}
			if sc := span.SpanContext(); sc.IsValid() {
				attrs = append(attrs, slog.String("trace_id", sc.TraceID().String()))
			}
			ri.mu.Unlock()
			o.Access.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
		}
	})
	if o.Tracing == nil && o.Meter == nil {
		return inner
	}
	opts := []otelhttp.Option{otelhttp.WithPropagators(otel.GetTextMapPropagator()), otelhttp.WithServerName(o.ServerName)}
	if o.Tracing != nil {
		opts = append(opts, otelhttp.WithTracerProvider(o.Tracing))
	} else {
		opts = append(opts, otelhttp.WithTracerProvider(tracenoop.NewTracerProvider()))
	}
	if o.Meter != nil {
		opts = append(opts, otelhttp.WithMeterProvider(o.Meter))
	} else {
		opts = append(opts, otelhttp.WithMeterProvider(metricnoop.NewMeterProvider()))
	}
	return otelhttp.NewHandler(inner, "http", opts...)
}

// httpRoute is a mux pattern as http.route: without its method or host.
func httpRoute(pattern string) string {
	if i := strings.IndexByte(pattern, ' '); i >= 0 {
		pattern = pattern[i+1:]
	}
	if i := strings.IndexByte(pattern, '/'); i > 0 {
		pattern = pattern[i:]
	}
	return pattern
}

// routeOf is the pattern the mux matched (without its method), so label
// values stay few; "unmatched" when none did.
func routeOf(r *http.Request) string {
	p := r.Pattern
	if i := strings.IndexByte(p, ' '); i >= 0 {
		p = p[i+1:]
	}
	if p == "" || p == "/" {
		return "unmatched"
	}
	return p
}

// requestID keeps a client's id if it is short and plain, so it cannot
// forge log lines; otherwise it makes one.
func requestID(given string) string {
	if given != "" && len(given) <= 128 {
		ok := true
		for _, c := range given {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_.:/+=@", c)) {
				ok = false
				break
			}
		}
		if ok {
			return given
		}
	}
	return uuid.NewString()
}

// recorder notes the status and size of a response.
type recorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *recorder) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *recorder) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += int64(n)
	return n, err
}

func (w *recorder) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (w *recorder) Unwrap() http.ResponseWriter { return w.ResponseWriter }

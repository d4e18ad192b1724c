package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// RequestIDHeader carries a request's id: taken from the client when it
// sends a reasonable one, generated otherwise, and always echoed.
const RequestIDHeader = "X-Request-ID"

// RequestObserver is told about every request served (the metrics).
type RequestObserver func(route, method string, status int, d time.Duration)

// Observation is what Observe does around every request.
type Observation struct {
	// Access gets one line per request; nil: no access log.
	Access *slog.Logger
	// Tracer opens a span per request, under the caller's trace context
	// (traceparent) if it sent one; nil: none.
	Tracer trace.Tracer
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

// noteAccount records the authenticated account for the access log.
func noteAccount(ctx context.Context, id string) {
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

// Observe wraps h with request ids, a span and an access log line per
// request, and request metrics. The log line never holds keys, secrets,
// query strings or bodies: method, route, status, bytes, duration,
// account id, request id and the job id when there is one.
func Observe(h http.Handler, o Observation) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		began := time.Now()
		ri := &requestInfo{id: requestID(r.Header.Get(RequestIDHeader))}
		w.Header().Set(RequestIDHeader, ri.id)
		ctx := context.WithValue(r.Context(), requestInfoKey{}, ri)
		var span trace.Span
		if o.Tracer != nil {
			ctx = otel.GetTextMapPropagator().Extract(ctx, propagation.HeaderCarrier(r.Header))
			ctx, span = o.Tracer.Start(ctx, r.Method, trace.WithSpanKind(trace.SpanKindServer),
				trace.WithAttributes(attribute.String("http.request.method", r.Method),
					attribute.String("dragoman.request_id", ri.id)))
			defer span.End()
		}
		rw := &recorder{ResponseWriter: w}
		req := r.WithContext(ctx)
		h.ServeHTTP(rw, req)
		d := time.Since(began)

		route := routeOf(req)
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
		if span != nil {
			span.SetName(r.Method + " " + route)
			span.SetAttributes(attribute.String("http.route", route), attribute.Int("http.response.status_code", status))
			if status >= 500 {
				span.SetStatus(otelcodes.Error, http.StatusText(status))
			}
		}
		if o.Metrics != nil {
			o.Metrics(route, r.Method, status, d)
		}
		if o.Access != nil {
			ri.mu.Lock()
			attrs := []slog.Attr{
				slog.String("method", r.Method), slog.String("route", route), slog.Int("status", status),
				slog.Int64("bytes", rw.bytes), slog.Float64("duration_ms", float64(d.Microseconds())/1000),
				slog.String("account_id", ri.accountID), slog.String("request_id", ri.id),
			}
			if ri.jobID != "" {
				attrs = append(attrs, slog.String("job_id", ri.jobID))
			}
			if span != nil && span.SpanContext().IsValid() {
				attrs = append(attrs, slog.String("trace_id", span.SpanContext().TraceID().String()))
			}
			ri.mu.Unlock()
			o.Access.LogAttrs(ctx, slog.LevelInfo, "request", attrs...)
		}
	})
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

package telemetry

import (
	"context"
	"errors"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// Jobs counts jobs as they are accepted, complete and fail. A store that
// is also a ports.JobCatalog stays one.
func (m *Metrics) Jobs(inner ports.JobStore) ports.JobStore {
	js := &jobStore{inner, m}
	if cat, ok := inner.(ports.JobCatalog); ok {
		return &catalogStore{js, cat}
	}
	return js
}

type catalogStore struct {
	*jobStore
	ports.JobCatalog
}

type jobStore struct {
	ports.JobStore
	m *Metrics
}

func (s *jobStore) CreateJob(ctx context.Context, j *job.Job) error {
	if err := s.JobStore.CreateJob(ctx, j); err != nil {
		return err
	}
	// The engine is chosen at the translate stage; "auto" until then.
	s.m.jobsAccepted.WithLabelValues(label(j.Format), "auto").Inc()
	return nil
}

func (s *jobStore) UpdateJob(ctx context.Context, id string, fn func(*job.Job) error) (*job.Job, error) {
	var before job.Status
	j, err := s.JobStore.UpdateJob(ctx, id, func(j *job.Job) error {
		before = j.Status // the last run's is the one written
		return fn(j)
	})
	if err != nil || j == nil || before == j.Status {
		return j, err
	}
	switch j.Status {
	case job.Completed, job.Failed:
		end := time.Now()
		if j.CompletedAt != nil {
			end = *j.CompletedAt
		}
		s.m.jobDuration.WithLabelValues(string(j.Status)).Observe(end.Sub(j.CreatedAt).Seconds())
	}
	switch j.Status {
	case job.Completed:
		s.m.jobsCompleted.WithLabelValues(label(j.Format), label(j.Engine)).Inc()
		s.m.words.Add(float64(j.Words))
	case job.Failed:
		reason := FailureReason(j.Error)
		s.m.jobsFailed.WithLabelValues(label(j.Format), label(j.Engine), reason).Inc()
		if reason == "quota" {
			// Counted on the job, not on Reserve: extraction stops counting
			// at the words left and fails before it reserves anything.
			s.m.refusals.WithLabelValues("quota", "extract").Inc()
		}
	}
	return j, err
}

func label(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// FailureReason sorts a job's error message into a few label values, so
// the metric's cardinality stays bounded whatever the message says.
func FailureReason(msg string) string {
	m := strings.ToLower(msg)
	switch {
	case m == "cancelled":
		return "cancelled"
	case strings.Contains(m, "quota"):
		return "quota"
	case strings.Contains(m, "cannot be translated yet"), strings.Contains(m, "not supported"):
		return "unsupported"
	case strings.Contains(m, "could not be read"), strings.Contains(m, "could not be converted"),
		strings.Contains(m, "corrupt"), strings.Contains(m, "encrypted"), strings.Contains(m, "bad document"):
		return "bad_document"
	case strings.Contains(m, "no configured engine"), strings.Contains(m, "no translation engine"):
		return "no_engine"
	case strings.Contains(m, "translation engine"):
		return "engine"
	case strings.Contains(m, "source language"), strings.Contains(m, "source_lang"):
		return "language"
	case strings.Contains(m, "processing stopped after"):
		return "attempts"
	case strings.Contains(m, "failed repeatedly"):
		return "retries"
	}
	return "other"
}

// Engines counts every call to every engine the registry hands out.
func (m *Metrics) Engines(inner ports.EngineRegistry) ports.EngineRegistry {
	return &engineRegistry{inner, m}
}

type engineRegistry struct {
	inner ports.EngineRegistry
	m     *Metrics
}

func (r *engineRegistry) Engines(ctx context.Context) ([]ports.Engine, error) {
	es, err := r.inner.Engines(ctx)
	out := make([]ports.Engine, len(es))
	for i, e := range es {
		e.Provider = &provider{Provider: e.Provider, name: e.Name, m: r.m}
		out[i] = e
	}
	return out, err
}

type provider struct {
	ports.Provider
	name string
	m    *Metrics
}

func (p *provider) Translate(ctx context.Context, req ports.TranslateRequest) (ports.TranslateResult, error) {
	chars := 0
	for _, s := range req.Segments {
		chars += utf8.RuneCountInString(s)
	}
	p.m.engineCalls.WithLabelValues(p.name).Inc()
	p.m.engineChars.WithLabelValues(p.name).Add(float64(chars))
	p.m.engineErrors.WithLabelValues(p.name).Add(0)
	p.m.engineRetries.WithLabelValues(p.name).Add(0)
	began := time.Now()
	res, err := p.Provider.Translate(ctx, req)
	p.m.engineLatency.WithLabelValues(p.name).Observe(time.Since(began).Seconds())
	if err != nil {
		p.m.engineErrors.WithLabelValues(p.name).Inc()
		return res, &EngineCallError{Engine: p.name, Err: err}
	}
	return res, nil
}

// EngineCallError names the engine of a failed call; it unwraps to the
// engine's error and prints the same.
type EngineCallError struct {
	Engine string
	Err    error
}

func (e *EngineCallError) Error() string { return e.Err.Error() }
func (e *EngineCallError) Unwrap() error { return e.Err }

// CountRetries wraps a translate.Translator Retryable function: every
// error it allows another try for is counted as a retry of its engine.
func (m *Metrics) CountRetries(retryable func(error) bool) func(error) bool {
	return func(err error) bool {
		ok := retryable == nil || retryable(err)
		var ee *EngineCallError
		if ok && errors.As(err, &ee) {
			m.engineRetries.WithLabelValues(ee.Engine).Inc()
		}
		return ok
	}
}

// TM counts translation-memory hits and misses.
func (m *Metrics) TM(inner ports.TranslationMemory) ports.TranslationMemory { return &tm{inner, m} }

type tm struct {
	ports.TranslationMemory
	m *Metrics
}

func (t *tm) GetTM(ctx context.Context, account, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	got, err := t.TranslationMemory.GetTM(ctx, account, engine, mode, src, tgt, hashes)
	if err == nil {
		t.m.tmHits.Add(float64(len(got)))
		t.m.tmMisses.Add(float64(max(len(hashes)-len(got), 0)))
	}
	return got, err
}

// GetSharedTM looks up what the account's own memory missed (a shared
// memory): its hits count as hits; its misses were counted already.
func (t *tm) GetSharedTM(ctx context.Context, engine, mode, src, tgt string, hashes []string) (map[string]string, error) {
	got, err := t.TranslationMemory.GetSharedTM(ctx, engine, mode, src, tgt, hashes)
	if err == nil {
		t.m.tmHits.Add(float64(len(got)))
	}
	return got, err
}

// Limiter counts requests refused by the per-minute rate limit.
func (m *Metrics) Limiter(inner ports.RateLimiter) ports.RateLimiter { return &limiter{inner, m} }

type limiter struct {
	inner ports.RateLimiter
	m     *Metrics
}

func (l *limiter) Allow(ctx context.Context, key string, limit int) (bool, time.Duration, error) {
	ok, retry, err := l.inner.Allow(ctx, key, limit)
	if err == nil && !ok {
		l.m.refusals.WithLabelValues("rate_limit", "request").Inc()
	}
	return ok, retry, err
}

// Converter times conversions and counts the LibreOffice instances busy
// with them (the pool does one conversion per instance).
func (m *Metrics) Converter(inner ports.Converter) ports.Converter { return &converter{inner, m} }

type converter struct {
	ports.Converter
	m *Metrics
}

func (c *converter) Convert(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return c.m.converting(format, "docx", func() error { return c.Converter.Convert(ctx, format, in, out) })
}

// PDFRenderer times PDF renditions and counts the instances busy with
// them, as Converter does for conversions: they run on the same pool.
func (m *Metrics) PDFRenderer(inner ports.PDFRenderer) ports.PDFRenderer {
	return &pdfRenderer{inner, m}
}

type pdfRenderer struct {
	inner ports.PDFRenderer
	m     *Metrics
}

func (r *pdfRenderer) RenderPDF(ctx context.Context, format string, in io.Reader, out io.Writer) error {
	return r.m.converting(format, "pdf", func() error { return r.inner.RenderPDF(ctx, format, in, out) })
}

// converting counts convert as a conversion in progress and times it.
func (m *Metrics) converting(format, to string, convert func() error) error {
	m.loBusy.Inc()
	defer m.loBusy.Dec()
	began := time.Now()
	err := convert()
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.convDuration.WithLabelValues(format, to, outcome).Observe(time.Since(began).Seconds())
	return err
}

// Bus times every stage handler, opens a span for it (under the span the
// event was published in, which the event bus carries in the message
// metadata), and puts the job id in the context for log lines.
func (m *Metrics) Bus(inner ports.EventBus, tr trace.Tracer) ports.EventBus {
	return &bus{inner, m, tr}
}

type bus struct {
	ports.EventBus
	m  *Metrics
	tr trace.Tracer
}

func (b *bus) Handle(name string, topic ports.Topic, h ports.EventHandler) {
	b.EventBus.Handle(name, topic, b.observed(name, topic, h))
}

func (b *bus) HandleConcurrent(name string, topic ports.Topic, n int, h ports.EventHandler) {
	b.EventBus.HandleConcurrent(name, topic, n, b.observed(name, topic, h))
}

// observed wraps a stage's handler with its span and metrics.
func (b *bus) observed(name string, topic ports.Topic, h ports.EventHandler) ports.EventHandler {
	b.m.stageDuration.WithLabelValues(name)
	b.m.stageErrors.WithLabelValues(name).Add(0)
	return func(ctx context.Context, e ports.JobEvent) error {
		ctx = WithJobID(ctx, e.JobID)
		ctx, span := b.tr.Start(ctx, "stage "+name, trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithAttributes(attribute.String("dragoman.job_id", e.JobID), attribute.String("dragoman.stage", name),
				attribute.String("messaging.destination.name", string(topic))))
		defer span.End()
		began := time.Now()
		err := h(ctx, e)
		b.m.stageDuration.WithLabelValues(name).Observe(time.Since(began).Seconds())
		if err != nil {
			b.m.stageErrors.WithLabelValues(name).Inc()
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		}
		return err
	}
}

package telemetry

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

func TestFailureReasons(t *testing.T) {
	for msg, want := range map[string]string{
		"word quota exceeded: the document has 31 words but only 9 of this month's 40 remain; nothing was charged": "quota",
		".odt documents cannot be translated yet: no converter for this format is installed":                       "unsupported",
		"the document could not be read: zip: not a valid zip file":                                                "bad_document",
		"no configured engine translates Klingon to German (the source language was given)":                        "no_engine",
		`translation engine "deepl" failed: 456 quota`:                                                             "quota",
		`translation engine "deepl" failed: 503`:                                                                   "engine",
		"processing stopped after 12 attempts at the converted stage":                                              "attempts",
		"processing failed repeatedly after the extracted stage: boom":                                             "retries",
		"the source language could not be detected: give source_lang":                                              "language",
		"cancelled":      "cancelled",
		"something else": "other",
	} {
		if got := FailureReason(msg); got != want {
			t.Errorf("FailureReason(%q) = %s, want %s", msg, got, want)
		}
	}
}

// memJobs is a job store of one job.
type memJobs struct {
	ports.JobStore
	j job.Job
}

func (m *memJobs) CreateJob(_ context.Context, j *job.Job) error { m.j = *j; return nil }
func (m *memJobs) UpdateJob(_ context.Context, _ string, fn func(*job.Job) error) (*job.Job, error) {
	c := m.j
	if err := fn(&c); err != nil {
		return nil, err
	}
	m.j = c
	return &c, nil
}

type catalogJobs struct {
	ports.JobStore
	ports.JobCatalog
}

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	return rec.Body.String()
}

func TestJobsAreCountedOncePerTransition(t *testing.T) {
	m := NewMetrics()
	store := m.Jobs(&memJobs{})
	if _, ok := store.(ports.JobCatalog); ok {
		t.Error("a store that is no catalog became one")
	}
	if _, ok := m.Jobs(catalogJobs{}).(ports.JobCatalog); !ok {
		t.Error("the decorator hid the store's job catalog")
	}
	ctx := context.Background()
	now := time.Now()
	j := job.New("j1", "a1", now)
	j.Format = "docx"
	if err := store.CreateJob(ctx, j); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ { // a redelivered finish changes nothing the second time
		_, _ = store.UpdateJob(ctx, "j1", func(j *job.Job) error {
			if j.Status.Terminal() {
				return nil
			}
			j.Status, j.Engine, j.Words = job.Completed, "pseudo", 12
			return nil
		})
	}
	out := scrape(t, m)
	for _, want := range []string{
		`dragoman_jobs_accepted_total{engine="auto",format="docx"} 1`,
		`dragoman_jobs_completed_total{engine="pseudo",format="docx"} 1`,
		`dragoman_words_charged_total 12`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

type failingProvider struct{ ports.Provider }

var errCrash = errors.New("crashed")

func (failingProvider) Translate(context.Context, ports.TranslateRequest) (ports.TranslateResult, error) {
	return ports.TranslateResult{}, errCrash
}

type oneEngine struct{}

func (oneEngine) Engines(context.Context) ([]ports.Engine, error) {
	return []ports.Engine{{Name: "x", Provider: failingProvider{}}}, nil
}

func TestEngineCallsErrorsAndRetries(t *testing.T) {
	m := NewMetrics()
	es, _ := m.Engines(oneEngine{}).Engines(context.Background())
	_, err := es[0].Provider.Translate(context.Background(), ports.TranslateRequest{Segments: []string{"héllo", "ab"}})
	if !errors.Is(err, errCrash) || err.Error() != "crashed" {
		t.Fatalf("the engine's error changed: %v", err)
	}
	if !m.CountRetries(func(e error) bool { return errors.Is(e, errCrash) })(err) {
		t.Fatal("retryable changed its answer")
	}
	out := scrape(t, m)
	for _, want := range []string{
		`dragoman_engine_calls_total{engine="x"} 1`,
		`dragoman_engine_characters_sent_total{engine="x"} 7`,
		`dragoman_engine_errors_total{engine="x"} 1`,
		`dragoman_engine_retries_total{engine="x"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

func TestLogLinesInAJobsContextCarryItsID(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(NewLogHandler(&buf, "json", slog.LevelInfo))
	log.InfoContext(WithJobID(context.Background(), "j-7"), "stage failed", "stage", "convert")
	log.InfoContext(WithJobID(context.Background(), "j-7"), "explicit", "job_id", "j-7")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"job_id":"j-7"`) || strings.Count(lines[1], "job_id") != 1 {
		t.Errorf("log lines: %s", buf.String())
	}
}

// fakePDF renders a PDF, or fails for a format it does not know, and
// reports the busy instances it saw while rendering.
type fakePDF struct {
	t    *testing.T
	m    *Metrics
	busy []string
}

// busyLine is the busy-instances sample of a scrape.
func busyLine(t *testing.T, m *Metrics) string {
	for _, l := range strings.Split(scrape(t, m), "\n") {
		if strings.HasPrefix(l, "dragoman_libreoffice_busy_instances ") {
			return l
		}
	}
	return ""
}

func (f *fakePDF) RenderPDF(_ context.Context, format string, _ io.Reader, out io.Writer) error {
	f.busy = append(f.busy, busyLine(f.t, f.m))
	if format != "docx" {
		return errors.New("unknown format")
	}
	_, err := io.WriteString(out, "%PDF-")
	return err
}

// A PDF rendition runs on the converter's pool: it is counted as busy
// while it runs and timed in conversion_duration_seconds with to="pdf",
// beside the conversions (to="docx").
func TestPDFRendersAreCountedWithConversions(t *testing.T) {
	m := NewMetrics()
	inner := &fakePDF{t: t, m: m}
	r := m.PDFRenderer(inner)
	var out strings.Builder
	if err := r.RenderPDF(context.Background(), "docx", strings.NewReader("doc"), &out); err != nil || out.String() != "%PDF-" {
		t.Fatalf("the rendition changed: %q %v", out.String(), err)
	}
	if err := r.RenderPDF(context.Background(), "odt", strings.NewReader("doc"), &out); err == nil {
		t.Fatal("the renderer's error was lost")
	}
	const one, none = "dragoman_libreoffice_busy_instances 1", "dragoman_libreoffice_busy_instances 0"
	if len(inner.busy) != 2 || inner.busy[0] != one || inner.busy[1] != one {
		t.Errorf("while rendering: %q, want %q each time", inner.busy, one)
	}
	if got := busyLine(t, m); got != none {
		t.Errorf("after rendering: %q, want %q", got, none)
	}
	out2 := scrape(t, m)
	for _, want := range []string{
		`dragoman_conversion_duration_seconds_count{format="docx",outcome="ok",to="pdf"} 1`,
		`dragoman_conversion_duration_seconds_count{format="odt",outcome="error",to="pdf"} 1`,
	} {
		if !strings.Contains(out2, want) {
			t.Errorf("scrape lacks %s", want)
		}
	}
}

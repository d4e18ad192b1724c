package pipeline

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
)

// mixDetector weighs by script: it sees the whole text.
type mixDetector struct{ seen int }

func (d *mixDetector) Detect(text string) (string, float64) {
	d.seen = len(text)
	return "ar", 0.9
}

func (d *mixDetector) Mix(string) ([]string, []float64) {
	return []string{"ar", "fr", "en"}, []float64{0.6, 0.35, 0.05}
}

// TestDetectionReportsMixedLanguages (issue 10 §2): a script-weighing
// detector reads the whole text, and languages holding a tenth of the
// letters or more are named in the warning.
func TestDetectionReportsMixedLanguages(t *testing.T) {
	d := &mixDetector{}
	p := &Pipeline{Detector: d}
	text := strings.Repeat("x", 50_000)
	l, warn, err := p.sourceLanguage(&job.Job{SourceLang: "auto"}, text)
	if err != nil || l.Code != "ar" {
		t.Fatalf("source %v, %v", l, err)
	}
	if d.seen != len(text) {
		t.Errorf("detector saw %d of %d characters", d.seen, len(text))
	}
	if !strings.Contains(warn, "Arabic 60%") || !strings.Contains(warn, "French 35%") || strings.Contains(warn, "English") {
		t.Errorf("warning = %q", warn)
	}
}

// countingDetector counts the texts it is asked about.
type countingDetector struct{ calls int }

func (d *countingDetector) Detect(string) (string, float64) { d.calls++; return "de", 0.99 }

// A job of a batch carries the language the batch detected at submission
// (DetectedLang, source auto): its pass takes it and detects nothing, so
// the targets of one upload share one detection and one source.
func TestPassTakesTheBatchsDetectedSource(t *testing.T) {
	var got ports.LayoutRequest
	docs := sliceDocs{units: tenWords(3), got: &got}
	p, js, _, _ := passPipeline(t, docs, &shout{}, func(j *job.Job) { j.SourceLang, j.DetectedLang, j.TargetLang = "auto", "fr", "ar" })
	d := &countingDetector{}
	p.Detector = d
	runPass(t, p)
	j := mustJob(t, js)
	if j.Status == job.Failed || d.calls != 0 {
		t.Fatalf("job %s (%s), %d detections; want no failure and none", j.Status, j.Error, d.calls)
	}
	if j.DetectedLang != "fr" || got.SourceLang != "fr" {
		t.Errorf("detected %q, layout from %q; want the batch's fr", j.DetectedLang, got.SourceLang)
	}
	// Without it the pass detects, once.
	p, js, _, _ = passPipeline(t, docs, &shout{}, func(j *job.Job) { j.SourceLang, j.TargetLang = "auto", "ar" })
	p.Detector = d
	runPass(t, p)
	if j := mustJob(t, js); d.calls != 1 || j.DetectedLang != "de" {
		t.Errorf("%d detections, detected %q; want 1 and de", d.calls, j.DetectedLang)
	}
}

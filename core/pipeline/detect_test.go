package pipeline

import (
	"strings"
	"testing"

	"github.com/dragoman-translate/dragoman/core/job"
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

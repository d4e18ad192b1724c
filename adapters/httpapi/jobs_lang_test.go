package httpapi

import (
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// The job stores codes; the API shows language names as it always has.
func TestJobStatusShowsLanguageNames(t *testing.T) {
	j := job.New("j1", "a1", time.Date(2026, 11, 27, 8, 0, 0, 0, time.UTC))
	j.SourceLang, j.TargetLang = "auto", "ar"
	out := statusOf(j)
	if *out.SourceLang != "auto" || *out.TargetLang != "Arabic" {
		t.Errorf("before detection: source %q target %q, want auto Arabic", *out.SourceLang, *out.TargetLang)
	}
	j.DetectedLang = "zh-Hans"
	if out := statusOf(j); *out.SourceLang != "Chinese (Simplified)" {
		t.Errorf("detected source shown as %q", *out.SourceLang)
	}
	j.SourceLang, j.DetectedLang = "nb", ""
	if out := statusOf(j); *out.SourceLang != "Norwegian Bokmål" {
		t.Errorf("given source shown as %q", *out.SourceLang)
	}
}

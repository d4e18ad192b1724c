package webhook

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/review"
)

// Event ids are stored with queued deliveries and stage events: they must
// stay what the two hand-made UUIDv5 helpers gave before they were merged
// into package eventid, or a restart would announce an event again.
func TestEventIDsAreStable(t *testing.T) {
	if got, want := EventID("job-1", EventJobCompleted), "adfb1426-c7d3-5f61-b35a-c00c11538b13"; got != want {
		t.Errorf("webhook event id %s, want %s", got, want)
	}
	if got, want := ports.StageEventID("job-1", ports.TopicAccepted), "b1adabd8-61f7-599b-b3e6-846a1de306d8"; got != want {
		t.Errorf("stage event id %s, want %s", got, want)
	}
	if EventID("job-1", EventJobFailed) == EventID("job-1", EventJobCompleted) {
		t.Error("two events of one job share an id")
	}
}

// pdf_url is the PDF download address only for a completed job whose PDF
// was rendered; null when the job did not ask, or its rendition failed.
func TestPayloadPDFURL(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		pdf   job.PDFState
		event string
		want  any
	}{
		{"", EventJobCompleted, nil},
		{job.PDFReady, EventJobCompleted, "https://dragoman.example/v1/jobs/j1/download?format=pdf"},
		{job.PDFFailed, EventJobCompleted, nil},
		{job.PDFRequested, EventJobFailed, nil},
	} {
		data, _ := payloadData(t, &job.Job{ID: "j1", AccountID: "a", Status: job.Completed, CompletedAt: &now, PDF: tc.pdf}, tc.event)
		got, present := data["pdf_url"]
		if !present || got != tc.want {
			t.Errorf("pdf %q, %s: pdf_url %v (present %v), want %v", tc.pdf, tc.event, got, present, tc.want)
		}
	}
}

// job.completed carries the review's summary among its extension fields;
// job.failed does not.
func TestCompletedPayloadCarriesTheReview(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	j := &job.Job{ID: "7d1e0000-0000-4000-8000-000000000001", AccountID: "a1", Status: job.Completed, CompletedAt: &at, TargetLang: "es",
		Review: &review.Summary{Segments: 412, ToCheck: 7, ByKind: map[review.Kind]int{review.Links: 3}}}
	b, err := JobPayload(j, EventJobCompleted, "https://dragoman.example")
	if err != nil {
		t.Fatal(err)
	}
	var ev JobEvent
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	if r := ev.Data.Review; r == nil || r.Summary != "7 of 412 sentences to check" || r.ByKind["links"] != 3 {
		t.Errorf("review %+v", ev.Data.Review)
	}
	j.Status = job.Failed
	if b, _ := JobPayload(j, EventJobFailed, "https://dragoman.example"); strings.Contains(string(b), "review") {
		t.Errorf("job.failed with a review: %s", b)
	}
}

// bilingual_url appears only when a bilingual document was made: a job
// that did not ask for one, or whose bilingual failed, carries exactly the
// contract's nine data fields (section 6.3).
func TestPayloadBilingualURLOnlyWhenMade(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		bilingual job.PDFState
		event     string
		want      any
	}{
		{"", EventJobCompleted, nil},
		{job.PDFReady, EventJobCompleted, "https://dragoman.example/v1/jobs/j1/download?format=bilingual"},
		{job.PDFFailed, EventJobCompleted, nil},
		{job.PDFRequested, EventJobFailed, nil},
	} {
		data, raw := payloadData(t, &job.Job{ID: "j1", AccountID: "a", Status: job.Completed, CompletedAt: &now, Bilingual: tc.bilingual}, tc.event)
		got, present := data["bilingual_url"]
		if got != tc.want || present != (tc.want != nil) {
			t.Errorf("bilingual %q, %s: bilingual_url %v (present %v), want %v", tc.bilingual, tc.event, got, present, tc.want)
		}
		if tc.want == nil && len(data) != 9 {
			t.Errorf("bilingual %q, %s: %d data fields, want the contract's 9: %s", tc.bilingual, tc.event, len(data), raw)
		}
	}
}

// payloadData is the data object of j's payload for event, and the body.
func payloadData(t *testing.T, j *job.Job, event string) (map[string]any, []byte) {
	t.Helper()
	raw, err := JobPayload(j, event, "https://dragoman.example/")
	if err != nil {
		t.Fatal(err)
	}
	var p struct{ Data map[string]any }
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p.Data, raw
}

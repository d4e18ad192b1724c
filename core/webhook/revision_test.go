package webhook

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/job"
)

// A revision (a document rebuilt from post-edited XLIFF) is a new
// job.completed: its own id and its number in the data; the machine
// translation's payload is unchanged (no revision field, the old id).
func TestRevisionIsANewCompletedEvent(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	j := &job.Job{ID: "job-1", AccountID: "a", Status: job.Completed, TargetLang: "es", CompletedAt: &now}
	payload := func() map[string]any {
		b, err := JobPayload(j, EventJobCompleted, "https://x.example")
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		json.Unmarshal(b, &m)
		return m
	}
	first := payload()
	if first["id"] != EventID("job-1", EventJobCompleted) {
		t.Errorf("revision 0 id %v", first["id"])
	}
	if _, ok := first["data"].(map[string]any)["revision"]; ok {
		t.Error("the machine translation's payload has a revision field")
	}
	j.Revision = 1
	second := payload()
	if second["id"] == first["id"] || second["id"] != JobEventID(j, EventJobCompleted) || second["data"].(map[string]any)["revision"] != 1.0 {
		t.Errorf("revision 1 payload %v", second)
	}
	j.Revision = 2
	if JobEventID(j, EventJobCompleted) == second["id"] {
		t.Error("two revisions share an event id")
	}
}

package webhook

import (
	"testing"

	"github.com/dragoman-translate/dragoman/core/ports"
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

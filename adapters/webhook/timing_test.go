package webhook

import (
	"net/http"
	"testing"
	"time"

	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// Retries arrive on time by the wall clock, with the worker's default
// settings: the receiver answers 500 twice, and the second and third
// attempts reach it 2 s and 4 s after the one before, within ±300 ms.
// (A worker that looked at the queue once a second sent them up to 1 s
// late: +2.5 s and +7.5 s were seen.)
func TestRetriesArriveOnTime(t *testing.T) {
	store, _ := newStore(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, attempt int) {
		if attempt < 3 {
			http.Error(w, "not yet", http.StatusInternalServerError)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	hook := addWebhook(t, store, "hook-1", rc.srv.URL+"/hook", corewebhook.EventJobCompleted)
	cfg := Config{AllowPrivate: true, TLS: rc.tls()} // default delays and queue checks
	worker := startWorker(t, store, cfg, realClock{})
	n := NewNotifier(store, "https://dragoman.example/", realClock{}, worker.Wake)
	// Queue the event at an arbitrary moment relative to the worker's start.
	time.Sleep(370 * time.Millisecond)
	if err := n.Notify(bg, completedJob("0b4c9a52-1f8e-4f7a-b0c1-3d2e5f6a7b8c"), corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	finished(t, store, hook.ID, 3)
	hits := rc.hits()
	if len(hits) != 3 {
		t.Fatalf("%d requests, want 3", len(hits))
	}
	for i, want := range []time.Duration{2 * time.Second, 4 * time.Second} {
		gap := hits[i+1].arrived.Sub(hits[i].arrived)
		t.Logf("attempt %d arrived %v after attempt %d (want %v)", i+2, gap, i+1, want)
		if gap < want-300*time.Millisecond || gap > want+300*time.Millisecond {
			t.Errorf("attempt %d arrived %v after attempt %d, want %v ±300ms", i+2, gap, i+1, want)
		}
	}
}

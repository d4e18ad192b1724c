package webhook

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// BenchmarkNotify is what a job's completion costs the pipeline: queueing
// one delivery to each of two webhooks (SQLite).
func BenchmarkNotify(b *testing.B) {
	store, _ := newStore(b)
	addWebhook(b, store, "h1", "https://example.com/1", corewebhook.EventJobCompleted)
	addWebhook(b, store, "h2", "https://example.com/2", corewebhook.EventJobCompleted)
	n := NewNotifier(store, "https://d.example", &fakeClock{t: t0}, nil)
	i := 0
	for b.Loop() {
		i++
		if err := n.Notify(bg, completedJob(fmt.Sprintf("job-%d", i)), corewebhook.EventJobCompleted); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDeliver measures end-to-end delivery throughput: queued events
// claimed, signed and POSTed over HTTPS on loopback, results recorded.
func BenchmarkDeliver(b *testing.B) {
	store, _ := newStore(b)
	done := make(chan struct{}, 1024)
	rc := newReceiver(b, func(w http.ResponseWriter, r *http.Request, _ int) { done <- struct{}{} })
	addWebhook(b, store, "h1", rc.srv.URL, corewebhook.EventJobCompleted)
	clock := &fakeClock{t: t0}
	w := NewWorker(store, testConfig(rc), clock, nil)
	w.Start()
	defer w.Stop(bg)
	n := NewNotifier(store, "https://d.example", clock, w.Wake)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := n.Notify(bg, completedJob(fmt.Sprintf("job-%d", i)), corewebhook.EventJobCompleted); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			b.Fatalf("%d of %d delivered", i, b.N)
		}
	}
}

package webhook

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

// A completed job reaches the receiver, which times out on the first
// attempt, answers 500 to the second and 200 to the third; retries wait
// 2 s and 4 s on the clock, every request carries the same signed body,
// and the history shows all three attempts.
func TestCompletedJobRetriedUntilDelivered(t *testing.T) {
	store, _ := newStore(t)
	clock := &fakeClock{t: t0}
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, attempt int) {
		switch attempt {
		case 1:
			<-r.Context().Done() // longer than the client's timeout
		case 2:
			http.Error(w, "oops", http.StatusInternalServerError)
		default:
			w.WriteHeader(http.StatusNoContent)
		}
	})
	hook := addWebhook(t, store, "hook-1", rc.srv.URL+"/hooks/dragoman?token=abc", corewebhook.EventJobCompleted, corewebhook.EventJobFailed)
	cfg := testConfig(rc)
	cfg.Timeout = time.Second // attempt 1 outlasts it
	worker := startWorker(t, store, cfg, clock)
	n := NewNotifier(store, "https://dragoman.example/", clock, worker.Wake)

	j := completedJob("7d1e5c1a-0b6f-4a8e-9d7c-2f3e4a5b6c7d")
	if err := n.Notify(bg, j, corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	// At-least-once callers may announce twice: still one delivery.
	if err := n.Notify(bg, j, corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	h := finished(t, store, hook.ID, 1)
	if h[0].StatusCode != 0 || !strings.Contains(h[0].Error, "timed out after 1s") || !h[0].At.Equal(t0) {
		t.Fatalf("attempt 1: %+v", h[0])
	}

	clock.Set(t0.Add(2*time.Second - time.Millisecond))
	quiet(t, rc, 1)
	clock.Set(t0.Add(2 * time.Second))
	h = finished(t, store, hook.ID, 2)
	if h[0].Attempt != 2 || h[0].StatusCode != 500 || h[0].Error != "the receiver answered 500 Internal Server Error" || !h[0].At.Equal(t0.Add(2*time.Second)) {
		t.Fatalf("attempt 2: %+v", h[0])
	}

	clock.Set(t0.Add(6*time.Second - time.Millisecond))
	quiet(t, rc, 2)
	clock.Set(t0.Add(6 * time.Second))
	h = finished(t, store, hook.ID, 3)
	if h[0].Attempt != 3 || h[0].State != corewebhook.AttemptSucceeded || h[0].StatusCode != 204 || h[0].Error != "" || !h[0].At.Equal(t0.Add(6*time.Second)) {
		t.Fatalf("attempt 3: %+v", h[0])
	}
	clock.Set(t0.Add(time.Hour))
	quiet(t, rc, 3)

	eventID := corewebhook.EventID(j.ID, corewebhook.EventJobCompleted)
	want := `{"id":"` + eventID + `","event":"job.completed","timestamp":"2026-11-21T06:12:49.270Z","data":{` +
		`"job_id":"7d1e5c1a-0b6f-4a8e-9d7c-2f3e4a5b6c7d","user_id":"acct-1","status":"completed","original_name":"report.docx",` +
		`"docx_url":"https://dragoman.example/v1/jobs/7d1e5c1a-0b6f-4a8e-9d7c-2f3e4a5b6c7d/download","pdf_url":null,` +
		`"total_words":1234,"target_language":"Arabic","error":null}}`
	for i, got := range rc.hits() {
		if got.attempt != i+1 {
			t.Errorf("request %d is attempt %d", i+1, got.attempt)
		}
		if string(got.body) != want {
			t.Errorf("attempt %d body\n%s\nwant\n%s", got.attempt, got.body, want)
		}
		if got.sigErr != nil {
			t.Errorf("attempt %d: %v", got.attempt, got.sigErr)
		}
		for k, v := range map[string]string{"Content-Type": "application/json", HeaderEvent: "job.completed", HeaderID: eventID,
			signature.Header: signature.Sign(testSecret, []byte(want))} {
			if got.header.Get(k) != v {
				t.Errorf("attempt %d: %s = %q, want %q", got.attempt, k, got.header.Get(k), v)
			}
		}
	}
	for _, a := range h {
		if a.EventID != eventID || a.Event != corewebhook.EventJobCompleted || a.Latency <= 0 {
			t.Errorf("history line %+v", a)
		}
	}
	if h[2].Latency < 300*time.Millisecond {
		t.Errorf("the timed-out attempt took %v", h[2].Latency)
	}
}

// A failed job's event is abandoned after three failed attempts (500, a
// dropped connection, 502); docx_url is null and error carries the reason.
// A webhook subscribed only to job.completed gets nothing.
func TestFailedJobAbandonedAfterThreeAttempts(t *testing.T) {
	store, _ := newStore(t)
	clock := &fakeClock{t: t0}
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, attempt int) {
		switch attempt {
		case 2:
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
		case 3:
			w.WriteHeader(http.StatusBadGateway)
		default:
			w.WriteHeader(http.StatusInternalServerError)
		}
	})
	hook := addWebhook(t, store, "hook-failed", rc.srv.URL, corewebhook.EventJobFailed)
	other := addWebhook(t, store, "hook-completed-only", rc.srv.URL+"/other", corewebhook.EventJobCompleted)
	worker := startWorker(t, store, testConfig(rc), clock)
	n := NewNotifier(store, "https://dragoman.example", clock, worker.Wake)
	j := failedJob("0b6f4a8e-9d7c-4f3e-8a5b-6c7d7d1e5c1a")
	if err := n.Notify(bg, j, corewebhook.EventJobFailed); err != nil {
		t.Fatal(err)
	}
	finished(t, store, hook.ID, 1)
	clock.Set(t0.Add(2 * time.Second))
	finished(t, store, hook.ID, 2)
	clock.Set(t0.Add(6 * time.Second))
	h := finished(t, store, hook.ID, 3)
	clock.Set(t0.Add(time.Hour))
	quiet(t, rc, 3)
	if h[0].StatusCode != 502 || h[1].StatusCode != 0 || !strings.HasPrefix(h[1].Error, "no response: ") || h[2].StatusCode != 500 {
		t.Fatalf("history %+v", h)
	}
	for _, a := range h {
		if a.State != corewebhook.AttemptFailed {
			t.Errorf("attempt %d is %s", a.Attempt, a.State)
		}
	}
	want := `{"id":"` + corewebhook.EventID(j.ID, corewebhook.EventJobFailed) + `","event":"job.failed","timestamp":"2026-11-21T06:12:49.270Z","data":{` +
		`"job_id":"0b6f4a8e-9d7c-4f3e-8a5b-6c7d7d1e5c1a","user_id":"acct-1","status":"failed","original_name":"report.docx",` +
		`"docx_url":null,"pdf_url":null,"total_words":1234,"target_language":"Arabic","error":"the document is encrypted"}}`
	for _, got := range rc.hits() {
		if string(got.body) != want || got.sigErr != nil || got.header.Get(HeaderEvent) != "job.failed" {
			t.Fatalf("attempt %d: %s %v", got.attempt, got.body, got.sigErr)
		}
	}
	if oh, _ := store.ListAttempts(bg, other.ID, 10); len(oh) != 0 {
		t.Fatalf("a webhook not subscribed to job.failed got %+v", oh)
	}
}

// Stopping the process between attempts, and even during one, loses
// nothing: a new worker on the same database sends the remaining attempts,
// and no attempt number reaches the receiver twice.
func TestRestartDeliversTheRest(t *testing.T) {
	_, path := newStore(t)
	clock := &fakeClock{t: t0}
	release := make(chan struct{})
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, attempt int) {
		switch attempt {
		case 1:
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2:
			select { // hangs until the first process is stopped
			case <-r.Context().Done():
			case <-release:
			}
		default:
			w.WriteHeader(http.StatusOK)
		}
	})
	cfg := testConfig(rc)
	cfg.Timeout = 5 * time.Second

	first := openStore(t, path)
	hook := addWebhook(t, first, "hook-restart", rc.srv.URL, corewebhook.EventJobCompleted)
	w1 := NewWorker(first, cfg, clock, nil)
	w1.Start()
	if err := NewNotifier(first, "https://d.example", clock, w1.Wake).Notify(bg, completedJob("job-r"), corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	finished(t, first, hook.ID, 1)
	clock.Set(t0.Add(2 * time.Second))
	waitFor(t, "attempt 2 to reach the receiver", func() bool { return len(rc.hits()) == 2 })
	// Shut down while attempt 2 is in flight: it is cut off and recorded.
	stopCtx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	w1.Stop(stopCtx)
	cancel()
	close(release)
	first.Close()

	second := openStore(t, path)
	defer second.Close()
	h := finished(t, second, hook.ID, 2)
	if h[0].Attempt != 2 || h[0].Error != "cancelled: the server was shutting down" {
		t.Fatalf("interrupted attempt: %+v", h[0])
	}
	startWorker(t, second, cfg, clock)
	quiet(t, rc, 2) // attempt 3 waits its 4 s
	clock.Set(t0.Add(6 * time.Second))
	h = finished(t, second, hook.ID, 3)
	if h[0].Attempt != 3 || h[0].State != corewebhook.AttemptSucceeded {
		t.Fatalf("after restart: %+v", h)
	}
	for i, got := range rc.hits() {
		if got.attempt != i+1 || got.sigErr != nil {
			t.Fatalf("request %d: attempt %d, %v", i+1, got.attempt, got.sigErr)
		}
	}
}

// Two processes sharing one database send every attempt exactly once.
func TestTwoWorkersNeverSendAnAttemptTwice(t *testing.T) {
	_, path := newStore(t)
	clock := &fakeClock{t: t0}
	var mu sync.Mutex
	seen := map[string]int{}
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request, attempt int) {
		mu.Lock()
		seen[r.Header.Get(HeaderID)+"/"+r.Header.Get(HeaderAttempt)]++
		mu.Unlock()
		time.Sleep(2 * time.Millisecond)
	})
	a, b := openStore(t, path), openStore(t, path)
	defer a.Close()
	defer b.Close()
	hook := addWebhook(t, a, "hook-shared", rc.srv.URL, corewebhook.EventJobCompleted)
	wa := startWorker(t, a, testConfig(rc), clock)
	wb := startWorker(t, b, testConfig(rc), clock)
	na := NewNotifier(a, "https://d.example", clock, wa.Wake)
	nb := NewNotifier(b, "https://d.example", clock, wb.Wake)
	const jobs = 40
	for i := 0; i < jobs; i++ {
		n := na
		if i%2 == 1 {
			n = nb
		}
		if err := n.Notify(bg, completedJob(fmt.Sprintf("job-%02d", i)), corewebhook.EventJobCompleted); err != nil {
			t.Fatal(err)
		}
	}
	finished(t, a, hook.ID, jobs)
	quiet(t, rc, jobs)
	mu.Lock()
	defer mu.Unlock()
	for k, v := range seen {
		if v != 1 || !strings.HasSuffix(k, "/1") {
			t.Fatalf("%s sent %d times", k, v)
		}
	}
	if len(seen) != jobs {
		t.Fatalf("%d of %d events delivered", len(seen), jobs)
	}
}

// Without --allow-private-urls a webhook that points inside the network
// is refused when the connection is made, and plain http is not sent.
func TestPrivateAddressesRefused(t *testing.T) {
	store, _ := newStore(t)
	clock := &fakeClock{t: t0}
	rc := newReceiver(t, nil)
	cfg := testConfig(rc)
	cfg.AllowPrivate = false
	cfg.Delays = []time.Duration{0}
	loop := addWebhook(t, store, "hook-loopback", rc.srv.URL, corewebhook.EventJobCompleted)
	named := addWebhook(t, store, "hook-localhost", strings.Replace(rc.srv.URL, "127.0.0.1", "localhost", 1), corewebhook.EventJobCompleted)
	plain := addWebhook(t, store, "hook-http", "http://example.com/hook", corewebhook.EventJobCompleted)
	w := startWorker(t, store, cfg, clock)
	if err := NewNotifier(store, "https://d.example", clock, w.Wake).Notify(bg, completedJob("job-ssrf"), corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{loop.ID, named.ID} {
		h := finished(t, store, id, 1)
		if !strings.Contains(h[0].Error, "refused: ") || !strings.Contains(h[0].Error, "loopback") {
			t.Errorf("%s: %+v", id, h[0])
		}
	}
	if h := finished(t, store, plain.ID, 1); h[0].Error != "not sent: webhooks are delivered over https only" {
		t.Errorf("http: %+v", h[0])
	}
	if len(rc.hits()) != 0 {
		t.Fatal("the loopback receiver was reached")
	}
}

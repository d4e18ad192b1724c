package webhook

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net/http"
	"testing"
	"time"

	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

func TestDestinationIsSchemeHostAndPort(t *testing.T) {
	for in, want := range map[string]string{
		"https://Hooks.Example/a?b=c":   "https://hooks.example:443",
		"https://hooks.example:443/x":   "https://hooks.example:443",
		"http://hooks.example/x":        "http://hooks.example:80",
		"https://hooks.example:8443/x":  "https://hooks.example:8443",
		"https://other.example/a":       "https://other.example:443",
		"https://[::1]:9000/hook":       "https://[::1]:9000",
		"not a url with no host at all": "not a url with no host at all",
	} {
		if got := destination(in); got != want {
			t.Errorf("destination(%q) = %q, want %q", in, got, want)
		}
	}
}

// issue 26: one account's receiver that hangs delayed another account's
// job.completed by 27 s (20 jobs) when all deliveries shared 8 slots in
// due order. Now it holds its destination's share (2) and the other
// account's delivery goes out at once.
func TestHangingReceiverDelaysOnlyItself(t *testing.T) {
	store, _ := newStore(t)
	release := make(chan struct{})
	hang := newReceiver(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		select { // until the worker gives up (Timeout), or the test ends
		case <-r.Context().Done():
		case <-release:
		}
	})
	fast := newReceiver(t, nil)
	hookFor := func(account, id, url string) *corewebhook.Webhook {
		w := &corewebhook.Webhook{ID: id, AccountID: account, URL: url, Events: []string{corewebhook.EventJobCompleted},
			Secret: testSecret, Active: true, CreatedAt: t0}
		if err := store.CreateWebhook(bg, w); err != nil {
			t.Fatal(err)
		}
		return w
	}
	hookFor("acct-a", "hook-a", hang.srv.URL+"/hook")
	fastHook := hookFor("acct-b", "hook-b", fast.srv.URL+"/hook")
	roots := x509.NewCertPool()
	roots.AddCert(hang.srv.Certificate())
	roots.AddCert(fast.srv.Certificate())
	cfg := Config{AllowPrivate: true, TLS: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		Timeout: 30 * time.Second, PollInterval: 10 * time.Millisecond}
	worker := startWorker(t, store, cfg, realClock{})
	t.Cleanup(func() { close(release) }) // before the worker stops: it waits for its attempts
	n := NewNotifier(store, "https://dragoman.example/", realClock{}, worker.Wake)

	for i := range 20 {
		j := completedJob(fmt.Sprintf("00000000-0000-4000-8000-%012d", i))
		j.AccountID = "acct-a"
		if err := n.Notify(bg, j, corewebhook.EventJobCompleted); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, "the hanging receiver's share of requests", func() bool { return len(hang.hits()) >= 2 })
	start := time.Now()
	j := completedJob("11111111-0000-4000-8000-000000000000")
	j.AccountID = "acct-b"
	if err := n.Notify(bg, j, corewebhook.EventJobCompleted); err != nil {
		t.Fatal(err)
	}
	finished(t, store, fastHook.ID, 1)
	took := time.Since(start)
	t.Logf("account b's job.completed delivered %s after it was queued, behind 20 deliveries to a hanging receiver", took.Round(time.Millisecond))
	if took > 5*time.Second {
		t.Errorf("account b's delivery took %s: it waited behind the hanging receiver", took)
	}
	if got := len(hang.hits()); got != 2 {
		t.Errorf("the hanging receiver has %d requests in flight, want its share of 2", got)
	}
}

package webhook

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	corewebhook "github.com/dragoman-translate/dragoman/core/webhook"
)

var bg = context.Background()

// t0 is when the test jobs complete.
var t0 = time.Date(2026, 11, 21, 6, 12, 49, 270_000_000, time.UTC)

// fakeClock is moved by the test; the worker polls in real time but
// decides what is due by this clock.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

var serverKey = []byte("0123456789abcdef0123456789abcdef")

func openStore(t testing.TB, path string) *sqlstore.Store {
	t.Helper()
	s, err := sqlstore.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetSecretKey(serverKey); err != nil {
		t.Fatal(err)
	}
	return s
}

func newStore(t testing.TB) (*sqlstore.Store, string) {
	path := filepath.Join(t.TempDir(), "dragoman.db")
	s := openStore(t, path)
	t.Cleanup(func() { s.Close() })
	return s, path
}

const testSecret = "8c1f2a4be7d9035c6a1e0f9b2d4c7a8e5f3b1d0c9a8e7f6d5c4b3a2918070615"

func addWebhook(t testing.TB, s corewebhook.Store, id, url string, events ...string) *corewebhook.Webhook {
	t.Helper()
	w := &corewebhook.Webhook{ID: id, AccountID: "acct-1", URL: url, Events: events, Secret: testSecret, Active: true, CreatedAt: t0}
	if err := s.CreateWebhook(bg, w); err != nil {
		t.Fatal(err)
	}
	return w
}

func completedJob(id string) *job.Job {
	done := t0
	return &job.Job{ID: id, AccountID: "acct-1", Status: job.Completed, Stage: job.StageFinished, TargetLang: "ar",
		OriginalName: "report.docx", Words: 1234, CreatedAt: t0.Add(-time.Minute), UpdatedAt: t0, CompletedAt: &done}
}

func failedJob(id string) *job.Job {
	j := completedJob(id)
	j.Status, j.Error = job.Failed, "the document is encrypted"
	return j
}

// hit is one request the receiver got.
type hit struct {
	attempt int
	arrived time.Time
	header  http.Header
	body    []byte
	sigErr  error
}

// receiver is a real HTTPS server whose answer to each attempt the test
// scripts; it verifies every signature.
type receiver struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []hit
	// answer writes the response to an attempt (1, 2, 3); nil: 200.
	answer func(w http.ResponseWriter, r *http.Request, attempt int)
}

func newReceiver(t testing.TB, answer func(w http.ResponseWriter, r *http.Request, attempt int)) *receiver {
	rc := &receiver{answer: answer}
	rc.srv = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		n, _ := strconv.Atoi(r.Header.Get(HeaderAttempt))
		rc.mu.Lock()
		rc.got = append(rc.got, hit{attempt: n, arrived: time.Now(), header: r.Header.Clone(), body: body,
			sigErr: signature.Verify(testSecret, body, r.Header.Get(signature.Header))})
		rc.mu.Unlock()
		if rc.answer != nil {
			rc.answer(w, r, n)
		}
	}))
	t.Cleanup(rc.srv.Close)
	return rc
}

func (rc *receiver) hits() []hit {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]hit(nil), rc.got...)
}

// tls trusts the receiver's certificate and nothing else.
func (rc *receiver) tls() *tls.Config {
	pool := x509.NewCertPool()
	pool.AddCert(rc.srv.Certificate())
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// testConfig's timeout is generous: on a loaded machine a TLS handshake on
// loopback can take longer than the product's tests of timeouts allow;
// those set their own.
func testConfig(rc *receiver) Config {
	return Config{AllowPrivate: true, TLS: rc.tls(), Timeout: 10 * time.Second, PollInterval: 10 * time.Millisecond}
}

func startWorker(t *testing.T, q corewebhook.Queue, cfg Config, clock ports.Clock) *Worker {
	w := NewWorker(q, cfg, clock, nil)
	w.Start()
	t.Cleanup(func() { w.Stop(bg) })
	return w
}

// waitFor polls cond in real time.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// finished waits until the webhook's history has n attempts, none in flight.
func finished(t *testing.T, s corewebhook.Store, webhookID string, n int) []corewebhook.Attempt {
	t.Helper()
	var hist []corewebhook.Attempt
	waitFor(t, strconv.Itoa(n)+" finished attempts", func() bool {
		var err error
		hist, err = s.ListAttempts(bg, webhookID, 100)
		if err != nil {
			t.Fatal(err)
		}
		if len(hist) != n {
			return false
		}
		for _, h := range hist {
			if h.State == corewebhook.AttemptInProgress {
				return false
			}
		}
		return true
	})
	return hist
}

// quiet asserts the receiver gets no more than n requests in a while.
func quiet(t *testing.T, rc *receiver, n int) {
	t.Helper()
	time.Sleep(150 * time.Millisecond)
	if got := len(rc.hits()); got != n {
		t.Fatalf("receiver got %d requests, want %d", got, n)
	}
}

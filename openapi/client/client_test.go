package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

func TestVerifySignatureAgreesWithTheServer(t *testing.T) {
	secret := "4f1c0a0e9d7b6a5c4f1c0a0e9d7b6a5c4f1c0a0e9d7b6a5c4f1c0a0e9d7b6a5c"
	body := []byte(`{"id":"e1","event":"job.completed"}`)
	h := signature.Sign(secret, body)
	if err := VerifySignature(secret, body, h); err != nil {
		t.Fatalf("server signature refused: %v", err)
	}
	if Sign(secret, body) != h {
		t.Fatal("Sign differs from the server's")
	}
	for _, bad := range []string{"", "sha256=00", h[:len(h)-1] + "0", "sha1=" + h[7:]} {
		if err := VerifySignature(secret, body, bad); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := VerifySignature(secret, append(body, ' '), h); !errors.Is(err, ErrBadSignature) {
		t.Error("a changed body passed")
	}
}

// Error answers become *APIError matching the sentinel of their status;
// 429 is waited out as Retry-After says, for replayable requests and for
// the streamed upload alike.
func TestTypedErrorsAndRateLimits(t *testing.T) {
	var calls, uploads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-API-Key") != "dgm_test" {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(401)
			w.Write([]byte(`{"status":401,"code":"unauthenticated","message":"invalid API key"}`))
			return
		}
		switch r.URL.Path {
		case "/v1/usage":
			if calls.Add(1) == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(429)
				w.Write([]byte(`{"status":429,"code":"rate_limited","message":"slow down"}`))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"used_words":7,"limit_words":null,"plan_name":"pro"}`))
		case "/v1/translate":
			_, _ = r.MultipartReader()
			if uploads.Add(1) == 1 {
				w.Header().Set("Retry-After", "1")
				w.WriteHeader(429)
				w.Write([]byte(`{"status":429,"code":"rate_limited","message":"slow down"}`))
				return
			}
			w.WriteHeader(402)
			w.Write([]byte(`{"status":402,"code":"quota_exhausted","message":"monthly word quota exhausted"}`))
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"status":404,"code":"not_found","message":"job not found or expired"}`))
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	bad, _ := New(srv.URL, "dgm_wrong")
	if _, err := bad.Usage(ctx); !errors.Is(err, ErrUnauthenticated) {
		t.Fatalf("401: %v", err)
	}
	c, err := New(srv.URL, "dgm_test")
	if err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	c.OnRateLimit = func(d time.Duration) { waits = append(waits, d) }
	u, err := c.Usage(ctx)
	if err != nil || u.UsedWords != 7 || len(waits) != 1 || waits[0] != time.Second {
		t.Fatalf("usage after a 429: %v %+v, waits %v", err, u, waits)
	}
	if _, err := c.Job(ctx, "6f1c0a0e-9d7b-4a5c-8f1c-0a0e9d7b6a5c"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("404: %v", err)
	}
	doc := filepath.Join(t.TempDir(), "a.docx")
	os.WriteFile(doc, []byte("PK not really"), 0o644)
	_, err = c.TranslateFile(ctx, doc, Options{To: "es"})
	var ae *APIError
	if !errors.Is(err, ErrQuotaExhausted) || !errors.As(err, &ae) || ae.Code != "quota_exhausted" {
		t.Fatalf("402 after a 429 on the upload: %v", err)
	}
	if uploads.Load() != 2 || len(waits) != 2 {
		t.Fatalf("%d uploads, %d waits", uploads.Load(), len(waits))
	}
}

// The README shows the example program verbatim (the app tests run it).
func TestREADMEShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := os.ReadFile("example/main.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "```go\n"+string(ex)+"```\n") {
		t.Fatal("README.md does not show openapi/client/example/main.go as it is")
	}
}

// Ctrl-C after an upload was sent but before its 202 arrived: the answer
// is still read and the job it names is cancelled, so no job is left
// running that the user believes stopped (a CLI test caught one such job).
func TestInterruptedSubmissionCancelsTheAcceptedJob(t *testing.T) {
	const id = "6f1c0a0e-9d7b-4a5c-8f1c-0a0e9d7b6a5c"
	type round struct{ received, answer chan struct{} }
	var cur atomic.Pointer[round]
	var deleted atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == "POST" && (r.URL.Path == "/v1/translate" || r.URL.Path == "/v1/translate-url"):
			_, _ = io.Copy(io.Discard, r.Body)
			rd := cur.Load()
			close(rd.received)
			<-rd.answer // the client's context ends meanwhile
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(202)
			w.Write([]byte(`{"job_id":"` + id + `","status":"pending","total_words":3}`))
		case r.Method == "DELETE" && r.URL.Path == "/v1/jobs/"+id:
			deleted.Store(r.URL.Path)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"job_id":"` + id + `","status":"failed","error":"cancelled"}`))
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"status":404,"code":"not_found","message":"no"}`))
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL, "dgm_test")
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "a.docx")
	os.WriteFile(doc, []byte("PK not really"), 0o644)
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"file", func(ctx context.Context) error { _, err := c.TranslateFile(ctx, doc, Options{To: "es"}); return err }},
		{"url", func(ctx context.Context) error {
			_, err := c.TranslateURL(ctx, "https://example.com/a.docx", Options{To: "es"})
			return err
		}},
	} {
		rd := &round{make(chan struct{}), make(chan struct{})}
		cur.Store(rd)
		deleted = atomic.Value{}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- tc.run(ctx) }()
		select {
		case <-rd.received:
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the upload never reached the server", tc.name)
		}
		cancel()
		time.Sleep(100 * time.Millisecond) // the interrupt lands before the answer
		close(rd.answer)
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("%s: %v, want context.Canceled", tc.name, err)
		}
		if deleted.Load() == nil {
			t.Errorf("%s: the job accepted as the client was interrupted was not cancelled", tc.name)
		}
	}
}

// A job that completed just before the interrupt is not deleted: a plain
// DELETE on a finished job deletes its output, which the user has paid
// for, so the interrupt sends DELETE ?keep_finished=true, which only
// cancels (one request: no window between a status check and the cancel).
func TestInterruptKeepsAFinishedJob(t *testing.T) {
	const id = "6f1c0a0e-9d7b-4a5c-8f1c-0a0e9d7b6a5c"
	var deletes, cancels atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == "DELETE" && r.URL.Path == "/v1/jobs/"+id && r.URL.Query().Get("keep_finished") == "true":
			cancels.Add(1)
			w.Write([]byte(`{"job_id":"` + id + `","status":"completed","total_words":3}`))
		case r.Method == "DELETE":
			deletes.Add(1)
			w.WriteHeader(204)
		default:
			w.WriteHeader(404)
			w.Write([]byte(`{"status":404,"code":"not_found","message":"no"}`))
		}
	}))
	defer srv.Close()
	c, err := New(srv.URL, "dgm_test")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c.cancelStarted(ctx, id, Options{})
	if deletes.Load() != 0 || cancels.Load() != 1 {
		t.Errorf("on interrupt: %d plain DELETEs, %d with keep_finished; want 0 and 1", deletes.Load(), cancels.Load())
	}
}

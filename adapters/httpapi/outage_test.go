package httpapi

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/service"
)

// A dependency that is down is a 503 with Retry-After naming it, in words
// without its address; anything else unknown stays a bare 500.
func TestUnavailableIsA503WithRetryAfter(t *testing.T) {
	down := &ports.Unavailable{What: "the document store", Reason: "is not answering", RetryAfter: 4500 * time.Millisecond,
		Err: errors.New("Put \"http://10.9.8.7:7070/bucket/jobs/x/input\": dial tcp 10.9.8.7:7070: connect: connection refused")}
	p := problemOf(errors.Join(errors.New("service: submit"), down))
	if p.Status != 503 || p.Code != "unavailable" || p.GetHeaders().Get("Retry-After") != "5" {
		t.Fatalf("problem %+v, headers %v", p, p.GetHeaders())
	}
	if p.Message != "the document store is not answering; try again in 5 s" {
		t.Errorf("message %q", p.Message)
	}
	wrapped := problemOf(&service.Error{Kind: service.KindUnavailable, Message: "translation engines are unavailable", Err: down})
	if wrapped.Status != 503 || wrapped.GetHeaders().Get("Retry-After") != "5" {
		t.Errorf("wrapped: %+v %v", wrapped, wrapped.GetHeaders())
	}
	if p := problemOf(errors.New("boom")); p.Status != 500 || p.Message != "internal error" {
		t.Errorf("unknown error: %+v", p)
	}
}

// Another program holds the SQLite file's lock (issue 26 §4: a submit
// waited 24.4 s, then 500): concurrent requests get 503, Retry-After and a
// problem body naming the lock within the 2 s busy timeout, and /v1/ready
// says the database is locked.
func TestLockedDatabaseAnswers503Quickly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "dragoman.db")
	st, err := sqlstore.OpenSQLite(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := blobstore.NewLocal(filepath.Join(dir, "documents"))
	if err != nil {
		t.Fatal(err)
	}
	svc := testPorts{config: service.DefaultConfig, store: st, blobs: blobs}.useCases()
	if err := st.CreateAccount(bg, &account.Account{ID: "alice", Name: "alice", PlanName: "pro", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	key, k, _ := account.NewKey(uuid.NewString(), "alice", time.Now())
	if err := st.CreateKey(bg, k); err != nil {
		t.Fatal(err)
	}
	api := New(svc, nil)
	api.SetReadiness(ReadinessCheck{Name: "database", Check: st.Ping}, ReadinessCheck{Name: "blobs", Check: blobs.Check},
		ReadinessCheck{Name: "bus", Advisory: true, Check: func(context.Context) error {
			return &ports.Unavailable{What: "the event bus", Reason: "is not answering", Err: errors.New("nats://10.1.1.1:4222")}
		}})
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	get := func(path string) (*http.Response, []byte) {
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		req.Header.Set("X-API-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp, b
	}
	if resp, body := get("/v1/ready"); resp.StatusCode != 200 || !strings.Contains(string(body), "not needed by this process") || strings.Contains(string(body), "10.1.1.1") {
		t.Fatalf("ready with only the advisory bus down: %d %s", resp.StatusCode, body)
	}

	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(bg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(bg, "BEGIN EXCLUSIVE"); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	var wg sync.WaitGroup
	for i := 0; i < 5; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, body := get("/v1/usage")
			var p Problem
			json.Unmarshal(body, &p)
			secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
			if resp.StatusCode != 503 || secs < 1 || p.Code != "unavailable" || !strings.Contains(p.Message, "locked") ||
				resp.Header.Get("Content-Type") != "application/problem+json" {
				t.Errorf("request %d on a locked database: %d Retry-After %q %s", i, resp.StatusCode, resp.Header.Get("Retry-After"), body)
			}
		}()
	}
	wg.Wait()
	if took := time.Since(began); took > 4*time.Second {
		t.Errorf("5 requests on a locked database took %s", took)
	}
	resp, body := get("/v1/ready")
	var ready struct {
		Ready  bool
		Checks map[string]string
	}
	json.Unmarshal(body, &ready)
	if resp.StatusCode != 503 || ready.Ready || ready.Checks["database"] != "the database is locked by another program" || ready.Checks["blobs"] != "ok" {
		t.Errorf("ready on a locked database: %d %s", resp.StatusCode, body)
	}
	conn.ExecContext(bg, "ROLLBACK")
	time.Sleep(time.Second)
	if resp, body := get("/v1/usage"); resp.StatusCode != 200 {
		t.Errorf("after the lock: %d %s", resp.StatusCode, body)
	}
}

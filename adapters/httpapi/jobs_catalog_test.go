package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/dragoman-translate/dragoman/adapters/blobstore"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore"
	"github.com/dragoman-translate/dragoman/core/account"
	"github.com/dragoman-translate/dragoman/core/job"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/core/quota"
	"github.com/dragoman-translate/dragoman/core/service"
)

// recordingBus keeps what is published; nothing runs the pipeline.
type recordingBus struct {
	mu     sync.Mutex
	events map[ports.Topic][]ports.JobEvent
}

func (b *recordingBus) Publish(_ context.Context, t ports.Topic, e ports.JobEvent) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.events[t] = append(b.events[t], e)
	return nil
}
func (b *recordingBus) Handle(string, ports.Topic, ports.EventHandler)                {}
func (b *recordingBus) HandleConcurrent(string, ports.Topic, int, ports.EventHandler) {}
func (b *recordingBus) of(t ports.Topic) []ports.JobEvent {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]ports.JobEvent(nil), b.events[t]...)
}

// newJobsEnv is the API over a real SQLite store and local blob store.
func newJobsEnv(t *testing.T) (*webhookEnv, *blobstore.Local, *recordingBus) {
	st, err := sqlstore.OpenSQLite(filepath.Join(t.TempDir(), "dragoman.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := blobstore.NewLocal(filepath.Join(t.TempDir(), "documents"))
	if err != nil {
		t.Fatal(err)
	}
	bus := &recordingBus{events: map[ports.Topic][]ports.JobEvent{}}
	svc := testPorts{config: service.DefaultConfig, store: st, jobCatalog: st, blobs: blobs, bus: bus}.useCases()
	e := &webhookEnv{t: t, store: st, keys: map[string]string{}, client: http.DefaultClient}
	for _, id := range []string{"alice", "bob"} {
		if err := st.CreateAccount(bg, &account.Account{ID: id, Name: id, PlanName: "pro", CreatedAt: time.Now()}); err != nil {
			t.Fatal(err)
		}
		plain, k, err := account.NewKey(uuid.NewString(), id, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		if err := st.CreateKey(bg, k); err != nil {
			t.Fatal(err)
		}
		e.keys[id] = plain
	}
	e.srv = httptest.NewServer(New(svc, nil).Handler())
	t.Cleanup(e.srv.Close)
	return e, blobs, bus
}

// GET /v1/jobs pages through an account's jobs newest first, over more
// than one page, with the status filter, and never shows another
// account's jobs.
func TestListJobsPaginates(t *testing.T) {
	e, _, _ := newJobsEnv(t)
	base := time.Now().UTC().Add(-time.Hour)
	var want []string
	for i := 0; i < 25; i++ {
		j := job.New(uuid.NewString(), "alice", base.Add(time.Duration(i)*time.Second))
		j.OriginalName, j.TargetLang = fmt.Sprintf("doc%d.docx", i), "es" // jobs store codes; the API shows the name
		if i%5 == 0 {
			_ = j.Fail("x", base)
		}
		if err := e.store.CreateJob(bg, j); err != nil {
			t.Fatal(err)
		}
		want = append([]string{j.ID}, want...)
	}
	if err := e.store.CreateJob(bg, job.New(uuid.NewString(), "bob", base)); err != nil {
		t.Fatal(err)
	}
	var got []string
	path, pages := "/v1/jobs?limit=10", 0
	for {
		var page JobList
		if code := e.do("alice", "GET", path, nil, &page); code != 200 {
			t.Fatalf("GET %s: %d", path, code)
		}
		pages++
		for _, j := range page.Jobs {
			got = append(got, j.JobID)
			if j.TargetLang == nil || *j.TargetLang != "Spanish" || !strings.HasPrefix(j.OriginalName, "doc") {
				t.Fatalf("job fields missing: %+v", j)
			}
		}
		if page.NextCursor == nil {
			break
		}
		path = "/v1/jobs?limit=10&cursor=" + *page.NextCursor
	}
	if pages != 3 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("%d pages, %d jobs; want 3 pages of the 25 jobs newest first", pages, len(got))
	}
	var failed JobList
	if code := e.do("alice", "GET", "/v1/jobs?status=failed", nil, &failed); code != 200 || len(failed.Jobs) != 5 || failed.NextCursor != nil {
		t.Fatalf("status=failed: %d, %d jobs", code, len(failed.Jobs))
	}
	for _, j := range failed.Jobs {
		if j.Status != "failed" {
			t.Fatalf("filter let %s through", j.Status)
		}
	}
	var bobs JobList
	if e.do("bob", "GET", "/v1/jobs", nil, &bobs); len(bobs.Jobs) != 1 {
		t.Fatalf("bob sees %d jobs", len(bobs.Jobs))
	}
	if code := e.do("alice", "GET", "/v1/jobs?cursor=bogus!", nil, nil); code != 422 {
		t.Fatalf("bad cursor: %d", code)
	}
	if code := e.do("alice", "GET", "/v1/jobs?status=lost", nil, nil); code != 422 {
		t.Fatalf("bad status: %d", code)
	}
}

// DELETE of a processing job cancels it: failed with "cancelled", its
// words given back, its files deleted, job.failed published. A second
// DELETE removes the finished job; another account's job is 404.
func TestCancelProcessingJobGivesWordsBack(t *testing.T) {
	e, blobs, bus := newJobsEnv(t)
	now := time.Now().UTC()
	j := job.New(uuid.NewString(), "alice", now)
	_ = j.Start(now)
	j.Words = 1234
	if err := e.store.CreateJob(bg, j); err != nil {
		t.Fatal(err)
	}
	if _, err := blobs.Put(bg, job.InputKey(j.ID), strings.NewReader("document")); err != nil {
		t.Fatal(err)
	}
	if err := e.store.Reserve(bg, "alice", quota.Period(now), j.ID, 1234, nil); err != nil {
		t.Fatal(err)
	}
	usage := func() int64 {
		var u struct {
			UsedWords int64 `json:"used_words"`
		}
		e.do("alice", "GET", "/v1/usage", nil, &u)
		return u.UsedWords
	}
	if u := usage(); u != 1234 {
		t.Fatalf("usage before %d", u)
	}
	if code := e.do("bob", "DELETE", "/v1/jobs/"+j.ID, nil, nil); code != 404 {
		t.Fatalf("bob cancels alice's job: %d", code)
	}
	var st JobStatus
	if code := e.do("alice", "DELETE", "/v1/jobs/"+j.ID, nil, &st); code != 200 {
		t.Fatalf("cancel: %d", code)
	}
	if st.Status != "failed" || st.Error == nil || *st.Error != "cancelled" {
		t.Fatalf("cancelled job: %s %v", st.Status, st.Error)
	}
	if u := usage(); u != 0 {
		t.Fatalf("words not given back: %d used", u)
	}
	if _, err := blobs.Open(bg, job.InputKey(j.ID)); err == nil {
		t.Fatal("the cancelled job's document is still stored")
	}
	if ev := bus.of(ports.TopicFailed); len(ev) != 1 || ev[0].JobID != j.ID || ev[0].Error != "cancelled" {
		t.Fatalf("job_failed events %+v", ev)
	}
	var again JobStatus
	if code := e.do("alice", "GET", "/v1/jobs/"+j.ID, nil, &again); code != 200 || again.Status != "failed" {
		t.Fatalf("after cancel: %d %s", code, again.Status)
	}
	if code := e.do("alice", "DELETE", "/v1/jobs/"+j.ID, nil, nil); code != 204 {
		t.Fatalf("delete finished job: %d", code)
	}
	if code := e.do("alice", "GET", "/v1/jobs/"+j.ID, nil, nil); code != 404 {
		t.Fatalf("deleted job: %d", code)
	}
	if n := len(bus.of(ports.TopicFailed)); n != 1 {
		t.Fatalf("deleting a finished job announced it again (%d events)", n)
	}
}

// The specification's webhook operations answer under /v1/api/webhooks
// too, where a client generated from the contract calls them.
func TestWebhooksAnswerUnderPrefixedAlias(t *testing.T) {
	e, _, _ := newJobsEnv(t)
	var list WebhookList
	for _, p := range []string{"/api/webhooks", "/v1/api/webhooks", "/v1/webhooks"} {
		if code := e.do("alice", "GET", p, nil, &list); code != 200 {
			t.Fatalf("GET %s: %d", p, code)
		}
	}
	if code := e.do("alice", "GET", "/v1/api/webhooks/nope", nil, nil); code != 404 {
		t.Fatalf("unknown webhook under the alias: %d", code)
	}
	if code := e.do("", "GET", "/v1/api/webhooks", nil, nil); code != 401 {
		t.Fatalf("alias without a key: %d", code)
	}
}

package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
)

// TestDashboardOutageAnswers503: while the database or the document store
// is down, the dashboard answers as the API does (issue 27): 503 with
// Retry-After, a page that says in words what is down (not a 500 "something
// went wrong"), and the problem body for its scripts; once the dependency
// is back, the same pages work again.
func TestDashboardOutageAnswers503(t *testing.T) {
	pg, err := pgtest.StartDurable()
	if err != nil {
		t.Fatalf("PostgreSQL needed: %v", err)
	}
	t.Cleanup(pg.Remove)
	s3 := s3test.Start(t)
	so := newScaleOut(pg.Database(t), s3, startNATS(t))
	so.env = append(so.env, "DRAGOMAN_ENGINES=pseudo")
	s := so.process(t, "all")
	acct := so.admin(t, "account", "create", "--plan", "pro", "--name", "outage")["account_id"].(string)
	key := so.admin(t, "key", "create", "--account", acct)["api_key"].(string)
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("correct horse battery\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	so.admin(t, "user", "create", "--account", acct, "--email", "down@example.com", "--password-file", pw)
	r := s.uploadFile(key, englishDocx, map[string]string{"source_lang": "English", "target_lang": "Spanish"})
	if r.status != 202 {
		t.Fatalf("submit: %d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	d := signedIn(t, s, "down@example.com", "correct horse battery")
	download := "/jobs/" + id + "/download"
	if r := d.get(download); r.status != 200 {
		t.Fatalf("download before the outage: %d %s", r.status, r.body)
	}

	// The page's alert: what is down, in a sentence, and when to come back.
	alert := regexp.MustCompile(`<div class="alert error" role="alert" dir="auto">([^<]*)</div>`)
	refused := func(what string, r response, says string) {
		t.Helper()
		secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
		m := alert.FindSubmatch(r.body)
		if r.status != http.StatusServiceUnavailable || secs < 1 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") ||
			m == nil || !strings.Contains(string(m[1]), says) || !strings.Contains(string(m[1]), "try again in") {
			t.Errorf("%s: %d, Retry-After %q, %s:\n%.2000s", what, r.status, r.header.Get("Retry-After"), r.header.Get("Content-Type"), r.body)
			return
		}
		t.Logf("%s: %d, Retry-After %d, %q", what, r.status, secs, m[1])
	}
	until := func(what, path string) {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for {
			r := d.get(path)
			if r.status == 200 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: still %d after the outage: %.500s", what, r.status, r.body)
			}
			time.Sleep(time.Second)
		}
	}

	// The document store down: a download is refused, the list of jobs
	// (in the database) still shows.
	s3.Stop()
	refused("a download with the document store down", d.get(download), "document store")
	if r := d.get("/jobs"); r.status != 200 {
		t.Errorf("the jobs page with only the document store down: %d", r.status)
	}
	if err := s3.Restart(); err != nil {
		t.Fatal(err)
	}
	until("the download", download)

	// The database down: every page, since the session is read from it.
	if err := pg.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/jobs", "/usage", "/keys", download} {
		refused(p+" with the database down", d.get(p), "database")
	}
	// A script's request gets the problem body.
	req, _ := http.NewRequest("GET", s.url("/jobs/rows"), nil)
	req.Header.Set("Accept", "application/json")
	resp, err := d.c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || resp.Header.Get("Content-Type") != "application/problem+json" {
		t.Errorf("the jobs' live rows with the database down: %d, Retry-After %q, %s", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"))
	}
	if err := pg.Restart(); err != nil {
		t.Fatal(err)
	}
	until("the jobs page", "/jobs")
}

package e2e

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A form whose text fields follow the file, as curl -F writes them in
// the order given: cut inside the last part's headers, the standard
// multipart reader saw a clean end.
const (
	wholeForm = "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.rtf\"\r\nContent-Type: application/rtf\r\n\r\n" +
		"{\\rtf1\\ansi Hello world.\\par}\r\n" +
		"--B\r\nContent-Disposition: form-data; name=\"source_lang\"\r\n\r\nEnglish\r\n" +
		"--B\r\nContent-Disposition: form-data; name=\"target_lang\"\r\n\r\nHebrew\r\n--B--\r\n"
)

var cutForm = wholeForm[:strings.Index(wholeForm, "name=\"target_l")]

// TestTruncatedBodiesMakeNoJob: a multipart body cut short inside a
// part's headers is 422 with a problem body, on the API and the
// dashboard, sent with a Content-Length that matches the cut body or
// chunked, and no job is made (issue 26: it was 202, and target_lang
// Hebrew became the default Arabic).
func TestTruncatedBodiesMakeNoJob(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	api := "X-API-Key: " + key + "\r\nContent-Type: multipart/form-data; boundary=B\r\n"

	// A Content-Length that matches the cut body: the body looks whole.
	a := rawPost(t, s.https, "POST", "/v1/translate", api, len(cutForm), cutForm, time.Hour)
	if a.status != 422 || a.code != "unprocessable" {
		t.Errorf("cut body with its length: %+v, want 422", a)
	}
	// Chunked: the body ends cleanly where it was cut.
	chunked := func(path, headers string) int {
		r, _ := http.NewRequest("POST", s.url(path), io.MultiReader(strings.NewReader(cutForm)))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
		for _, h := range strings.Split(strings.TrimSpace(headers), "\r\n") {
			if k, v, ok := strings.Cut(h, ": "); ok {
				r.Header.Set(k, v)
			}
		}
		resp, err := s.client.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 202 && !strings.Contains(resp.Header.Get("Content-Type"), "json") {
			t.Errorf("%s: %d answered without a JSON body: %s", path, resp.StatusCode, b)
		}
		return resp.StatusCode
	}
	if st := chunked("/v1/translate", "X-API-Key: "+key); st != 422 {
		t.Errorf("cut chunked body: %d, want 422", st)
	}
	// The dashboard's upload reads the same way.
	email := "cut@example.com"
	dashUser(t, s, acct, email, "a long enough password")
	d := signedIn(t, s, email, "a long enough password")
	tok := d.csrf("/translate")
	r, _ := http.NewRequest("POST", s.url("/translate"), strings.NewReader(cutForm))
	r.Header.Set("Content-Type", "multipart/form-data; boundary=B")
	r.Header.Set("Accept", "application/json")
	r.Header.Set("X-CSRF-Token", tok)
	resp, err := d.c.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 422 {
		t.Errorf("dashboard, cut body: %d, want 422", resp.StatusCode)
	}

	list := s.do("GET", "/v1/jobs", key, nil, "").json(t)
	if jobs := list["jobs"].([]any); len(jobs) != 0 {
		t.Fatalf("cut bodies made %d jobs: %v", len(jobs), jobs)
	}
	// The whole form makes a job, to Hebrew.
	a = rawPost(t, s.https, "POST", "/v1/translate", api, len(wholeForm), wholeForm, time.Hour)
	if a.status != 202 {
		t.Fatalf("whole form: %+v", a)
	}
	list = s.do("GET", "/v1/jobs", key, nil, "").json(t)
	jobs := list["jobs"].([]any)
	if len(jobs) != 1 || jobs[0].(map[string]any)["target_lang"] != "Hebrew" {
		t.Errorf("whole form: %s", fmt.Sprint(jobs))
	}
}

package e2e

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// request is one request of the clients' load during an outage test.
type request struct {
	at, done   time.Time
	what       string // submit, poll, download, cancel, ready
	status     int    // 0: no HTTP answer
	retryAfter string
	code       string // the problem's code
	body       string
	err        error
}

func (c request) String() string {
	return fmt.Sprintf("%s %s → %d (Retry-After %q, code %q, %s) %v %.200s",
		c.at.Format("15:04:05.000"), c.what, c.status, c.retryAfter, c.code, c.done.Sub(c.at).Round(time.Millisecond), c.err, c.body)
}

// clients is what the load saw: every request, the jobs accepted and the
// jobs cancelled.
type clients struct {
	mu        sync.Mutex
	calls     []request
	jobs      []string
	cancelled map[string]bool
}

// cancel cancels a job (it ends failed, "cancelled"); a job already
// finished is deleted instead, and forgotten.
func (l *clients) cancel(s *server, key, id string) request {
	r := l.send(s, "cancel", "DELETE", "/v1/jobs/"+id, key, nil, "")
	l.mu.Lock()
	defer l.mu.Unlock()
	switch r.status {
	case http.StatusOK:
		l.cancelled = map[string]bool{id: true}
	case http.StatusNoContent:
		l.jobs = slices.DeleteFunc(l.jobs, func(j string) bool { return j == id })
	}
	return r
}

// send does one request on s without failing the test (it runs beside
// it), and records it.
func (l *clients) send(s *server, what, method, path, key string, body []byte, contentType string) request {
	c := request{at: time.Now(), what: what}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, s.url(path), rd)
	if err == nil {
		req.Header.Set("X-API-Key", key)
		if contentType != "" {
			req.Header.Set("Content-Type", contentType)
		}
		var resp *http.Response
		if resp, err = s.client.Do(req); err == nil {
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			c.status, c.retryAfter, c.body = resp.StatusCode, resp.Header.Get("Retry-After"), string(b)
			var p struct{ Code string }
			if json.Unmarshal(b, &p) == nil {
				c.code = p.Code
			}
		}
	}
	c.err, c.done = err, time.Now()
	l.mu.Lock()
	l.calls = append(l.calls, c)
	l.mu.Unlock()
	return c
}

// submit posts a document; an accepted job is remembered.
func (l *clients) submit(s *server, key, path string) (string, request) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return "", request{err: err}
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("target_lang", "Spanish")
	mw.WriteField("source_lang", "English")
	fw, _ := mw.CreateFormFile("file", filepath.Base(path))
	fw.Write(doc)
	mw.Close()
	c := l.send(s, "submit", "POST", "/v1/translate", key, body.Bytes(), mw.FormDataContentType())
	var id string
	if c.status == http.StatusAccepted {
		var j struct {
			JobID string `json:"job_id"`
		}
		json.Unmarshal([]byte(c.body), &j)
		id = j.JobID
		l.mu.Lock()
		l.jobs = append(l.jobs, id)
		l.mu.Unlock()
	}
	return id, c
}

// run loads the two api processes until stop closes: a submission every
// few seconds, polls and downloads in between, alternating processes.
func (l *clients) run(a, b *server, key, doc string, stop <-chan struct{}) {
	tick := time.NewTicker(700 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		s := []*server{a, b}[i%2]
		if i%4 == 0 {
			l.submit(s, key, doc)
		} else if id := l.someJob(i); id != "" {
			if c := l.send(s, "poll", "GET", "/v1/jobs/"+id, key, nil, ""); c.status == 200 && strings.Contains(c.body, `"completed"`) && i%3 == 0 {
				l.send(s, "download", "GET", "/v1/jobs/"+id+"/download", key, nil, "")
			}
		}
		select {
		case <-stop:
			return
		case <-tick.C:
		}
	}
}

func (l *clients) someJob(i int) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.jobs) == 0 {
		return ""
	}
	return l.jobs[(i*7)%len(l.jobs)]
}

// accepted is every job the clients got a job id for.
func (l *clients) accepted() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.jobs...)
}

// refusals checks every answer that was not a success: each must be a
// 503 with Retry-After (whole seconds, at least 1) and the problem code
// "unavailable", answered within limit. It returns what is wrong, and a
// summary of the answers.
func (l *clients) refusals(from, to time.Time, limit time.Duration) (bad []string, summary string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	count := map[string]int{}
	var slowest time.Duration
	for _, c := range l.calls {
		if c.at.Before(from) || c.at.After(to) {
			continue
		}
		count[fmt.Sprintf("%s %d", c.what, c.status)]++
		switch {
		case c.err != nil:
			bad = append(bad, "no answer: "+c.String())
		case c.status < 400 || c.status == http.StatusNotFound && c.what == "download" || c.status == http.StatusGone:
		case c.status != http.StatusServiceUnavailable:
			bad = append(bad, "not a 503: "+c.String())
		default:
			secs, err := strconv.Atoi(c.retryAfter)
			if err != nil || secs < 1 || c.code != "unavailable" {
				bad = append(bad, "503 without Retry-After or problem: "+c.String())
			}
			if took := c.done.Sub(c.at); took > limit {
				bad = append(bad, fmt.Sprintf("503 after %s: %s", took.Round(time.Millisecond), c))
			}
			slowest = max(slowest, c.done.Sub(c.at))
		}
	}
	keys := make([]string, 0, len(count))
	for k, n := range count {
		keys = append(keys, fmt.Sprintf("%s ×%d", k, n))
	}
	sort.Strings(keys)
	return bad, fmt.Sprintf("%s; slowest 503 %s", strings.Join(keys, ", "), slowest.Round(time.Millisecond))
}

package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/webhook/signature"
)

// delivery is one POST a receiver got.
type delivery struct {
	at      time.Time
	event   string
	sig     string
	body    []byte
	payload map[string]any
	header  http.Header
}

// receiver is a webhook endpoint that answers the first `fail` requests
// with 500 and records everything.
type receiver struct {
	mu   sync.Mutex
	fail int
	got  []delivery
	srv  *httptest.Server
}

func newReceiver(t *testing.T, fail int) *receiver {
	r := &receiver{fail: fail}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		d := delivery{at: time.Now(), event: req.Header.Get("X-Webhook-Event"), sig: req.Header.Get("X-Webhook-Signature"), body: b, header: req.Header.Clone()}
		_ = json.Unmarshal(b, &d.payload)
		r.mu.Lock()
		r.got = append(r.got, d)
		failing := r.fail > 0
		if failing {
			r.fail--
		}
		r.mu.Unlock()
		if req.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(415)
			return
		}
		if failing {
			w.WriteHeader(500)
			return
		}
		w.WriteHeader(204)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) wait(t *testing.T, n int, timeout time.Duration) []delivery {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		r.mu.Lock()
		got := append([]delivery(nil), r.got...)
		r.mu.Unlock()
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("receiver got %d deliveries, want %d", len(got), n)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// specFields are the data fields of job.completed and job.failed in the
// specification, all always present.
var specFields = []string{"job_id", "user_id", "status", "original_name", "docx_url", "pdf_url", "total_words", "target_language", "error"}

// extensionFields are the data fields the README's Webhooks section adds,
// each allowed only where it says: on job.completed, revision (an edited
// output, 1 or more), bilingual_url (a bilingual document made) and review
// (what to check: summary, segments, to_check, by_kind).
var extensionFields = map[string]func(v any) bool{
	"revision": func(v any) bool { n, ok := v.(float64); return ok && n >= 1 && n == float64(int(n)) },
	"bilingual_url": func(v any) bool {
		u, ok := v.(string)
		return ok && strings.HasPrefix(u, "http") && strings.HasSuffix(u, "/download?format=bilingual")
	},
	"review": func(v any) bool {
		r, ok := v.(map[string]any)
		if !ok || len(r) != 4 {
			return false
		}
		sum, _ := r["summary"].(string)
		_, segs := r["segments"].(float64)
		_, check := r["to_check"].(float64)
		byKind, kinds := r["by_kind"].(map[string]any)
		for _, n := range byKind {
			if _, ok := n.(float64); !ok {
				return false
			}
		}
		return sum != "" && segs && check && kinds
	},
}

// payloadProblems lists what in a job.completed or job.failed payload
// departs from the specification and the documented extension fields:
// a field missing or undocumented, an extension field where it is not
// allowed or of the wrong shape.
func payloadProblems(payload map[string]any, event string) []string {
	var out []string
	if len(payload) != 4 {
		out = append(out, fmt.Sprintf("the payload has %d top-level fields, want id, event, timestamp and data", len(payload)))
	}
	data, _ := payload["data"].(map[string]any)
	for _, k := range specFields {
		if _, ok := data[k]; !ok {
			out = append(out, fmt.Sprintf("payload data lacks %q", k))
		}
	}
	for k, v := range data {
		if slices.Contains(specFields, k) {
			continue
		}
		valid, documented := extensionFields[k]
		switch {
		case !documented:
			out = append(out, fmt.Sprintf("payload data has the undocumented field %q", k))
		case event != "job.completed":
			out = append(out, fmt.Sprintf("payload data has %q on %s (only job.completed carries it)", k, event))
		case !valid(v):
			out = append(out, fmt.Sprintf("payload data's %q is not as documented: %v", k, v))
		}
	}
	return out
}

var isoMillis = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

func checkPayload(t *testing.T, d delivery, secret, event, jobID, account string) map[string]any {
	t.Helper()
	if err := signature.Verify(secret, d.body, d.sig); err != nil {
		t.Errorf("signature does not verify: %v", err)
	}
	if d.event != event || d.payload["event"] != event {
		t.Errorf("event header %q, payload %v; want %s", d.event, d.payload["event"], event)
	}
	if !isoMillis.MatchString(d.payload["timestamp"].(string)) {
		t.Errorf("timestamp %v is not ISO 8601 with milliseconds in UTC", d.payload["timestamp"])
	}
	data, _ := d.payload["data"].(map[string]any)
	for _, p := range payloadProblems(d.payload, event) {
		t.Errorf("%s: %s", p, d.body)
	}
	if data["job_id"] != jobID || data["user_id"] != account || data["pdf_url"] != nil {
		t.Errorf("payload data: %v", data)
	}
	return data
}

// TestWebhooksDeliverCompletionAndFailureThroughARestart registers a
// receiver, completes one job and fails another; the receiver refuses the
// first attempts, the server is killed between attempts, and the rest is
// still delivered, signed, with the exact payload and one stable id.
func TestWebhooksDeliverCompletionAndFailureThroughARestart(t *testing.T) {
	rcv := newReceiver(t, 1)
	s := startServer(t, []string{"--allow-private-urls", "--public-url", "https://dragoman.example.com"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("enterprise")
	reg := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	secret := reg.json(t)["secret"].(string)

	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "German", "source_lang": "English"})
	id := r.json(t)["job_id"].(string)
	s.waitJob(key, id, time.Minute)

	// Attempt 1 was refused; kill the server before attempt 2 (due 2 s later).
	first := rcv.wait(t, 1, 30*time.Second)
	s.kill()
	s.start()
	got := rcv.wait(t, 2, 30*time.Second)
	if gap := got[1].at.Sub(got[0].at); gap < 2*time.Second {
		t.Errorf("second attempt %s after the first, want at least 2 s", gap)
	}
	data := checkPayload(t, got[1], secret, "job.completed", id, acct)
	if rv, _ := data["review"].(map[string]any); rv == nil || rv["segments"] != 6.0 {
		t.Errorf("job.completed lacks the review among its extension fields: %v", data["review"])
	}
	if data["status"] != "completed" || data["docx_url"] != "https://dragoman.example.com/v1/jobs/"+id+"/download" ||
		data["original_name"] != "english.docx" || data["target_language"] != "German" || data["error"] != nil {
		t.Errorf("completed payload: %s", got[1].body)
	}
	if first[0].payload["id"] != got[1].payload["id"] {
		t.Errorf("event id changed between attempts: %v, %v", first[0].payload["id"], got[1].payload["id"])
	}

	// A job that fails (the quota is too small for the document).
	plan := s.admin("account", "set-plan", "--account", acct, "--plan", "enterprise", "--limit-words", "40", // 31 used; the next document needs 31 more
		"--max-document-words", "100000", "--max-document-segments", "5000")
	if plan["max_document_words"] != 100000.0 || plan["max_document_segments"] != 5000.0 {
		t.Errorf("set-plan: %v", plan)
	}
	r = s.uploadFile(key, englishDocx, map[string]string{"target_lang": "German", "source_lang": "English"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	fid := r.json(t)["job_id"].(string)
	j := s.waitJob(key, fid, time.Minute)
	if j["status"] != "failed" || !strings.Contains(j["error"].(string), "quota") {
		t.Fatalf("job: %v", j)
	}
	got = rcv.wait(t, 3, 30*time.Second)
	data = checkPayload(t, got[2], secret, "job.failed", fid, acct)
	if data["status"] != "failed" || data["docx_url"] != nil || data["error"] == nil {
		t.Errorf("failed payload: %s", got[2].body)
	}
	// The words counted before the quota stopped the job are reported, in
	// the job and in the payload (they were 0 while the message quoted them).
	if j["total_words"].(float64) < 10 || data["total_words"] != j["total_words"] {
		t.Errorf("failed job total_words %v, payload total_words %v", j["total_words"], data["total_words"])
	}
	if u := s.do("GET", "/v1/usage", key, nil, "").json(t); u["used_words"].(float64) != j2f(t, s, key, id) {
		t.Errorf("the failed job was charged: usage %v", u)
	}

	// The history lists every attempt.
	hooks := s.do("GET", "/v1/webhooks", key, nil, "")
	list, _ := hooks.json(t)["webhooks"].([]any)
	if len(list) != 1 {
		t.Fatalf("webhooks: %s", hooks.body)
	}
	hist := s.do("GET", "/v1/webhooks/"+list[0].(map[string]any)["id"].(string)+"/deliveries", key, nil, "")
	if hist.status != 200 || strings.Count(string(hist.body), `"attempt"`) < 3 {
		t.Errorf("delivery history: %d %s", hist.status, hist.body)
	}
	if strings.Contains(string(hooks.body)+string(hist.body), secret) {
		t.Error("the secret appears after registration")
	}
}

// j2f is the completed job's word count.
func j2f(t *testing.T, s *server, key, id string) float64 {
	return s.do("GET", "/v1/jobs/"+id, key, nil, "").json(t)["total_words"].(float64)
}

// The payload check itself: a field the specification and the README do
// not name fails it, and so does an extension field where the README does
// not allow it; the documented ones pass.
func TestPayloadCheckRefusesUndocumentedFields(t *testing.T) {
	base := func(extra map[string]any) map[string]any {
		data := map[string]any{}
		for _, k := range specFields {
			data[k] = nil
		}
		for k, v := range extra {
			data[k] = v
		}
		return map[string]any{"id": "e", "event": "job.completed", "timestamp": "t", "data": data}
	}
	review := map[string]any{"summary": "1 of 2 sentences to check", "segments": 2.0, "to_check": 1.0, "by_kind": map[string]any{"links": 1.0}}
	documented := base(map[string]any{"revision": 2.0, "bilingual_url": "https://h/v1/jobs/j/download?format=bilingual", "review": review})
	if p := payloadProblems(documented, "job.completed"); len(p) != 0 {
		t.Errorf("the documented extension fields were refused: %v", p)
	}
	for name, c := range map[string]struct {
		payload map[string]any
		event   string
	}{
		"an undocumented field":          {base(map[string]any{"score": 0.4}), "job.completed"},
		"a null extension field":         {base(map[string]any{"bilingual_url": nil}), "job.completed"},
		"the review on job.failed":       {base(map[string]any{"review": review}), "job.failed"},
		"a review with an unnamed field": {base(map[string]any{"review": map[string]any{"summary": "s", "segments": 1.0, "to_check": 0.0, "by_kind": map[string]any{}, "x": 1.0}}), "job.completed"},
		"revision 0":                     {base(map[string]any{"revision": 0.0}), "job.completed"},
		"a spec field missing":           {map[string]any{"id": "e", "event": "job.completed", "timestamp": "t", "data": map[string]any{"job_id": "j"}}, "job.completed"},
	} {
		if p := payloadProblems(c.payload, c.event); len(p) == 0 {
			t.Errorf("%s passed the check", name)
		}
	}
}

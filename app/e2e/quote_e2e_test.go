package e2e

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// A quote answers without an engine call and without a job; a held job
// waits for its confirmation, charging nothing, then runs; a quote of the
// same document afterwards finds it in the memory and the engine measured.
func TestQuoteHoldConfirm(t *testing.T) {
	s := startServer(t, []string{"--hold-for", "25s"}, batchEngines)
	acct, key, _ := s.account("starter")
	s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--requests-per-minute", "1000") // the test polls
	fields := map[string]string{"target_langs": "Spanish,Urdu", "source_lang": "English", "translation_mode": "full"}

	q := s.quote(key, fields)
	targets := q["targets"].([]any)
	words := q["words"].(float64)
	if words == 0 || q["charged_words"] != 2*words || q["documents"] != 1.0 || q["source_lang"] != "English" || len(targets) != 2 {
		t.Fatalf("quote: %v", q)
	}
	es := targets[0].(map[string]any)
	route := es["route"].([]any)
	if es["target_lang"] != "Spanish" || len(route) != 1 || es["engine_characters"].(float64) < 50 || es["segments_in_memory"] != 0.0 {
		t.Errorf("Spanish: %v", es)
	}
	if leg := route[0].(map[string]any); leg["engine"] != "apertium" || leg["source_lang"] != "English" || leg["target_lang"] != "Spanish" || leg["exact"] != true {
		t.Errorf("Spanish route: %v", leg)
	}
	if ur := targets[1].(map[string]any); ur["route"].([]any)[0].(map[string]any)["engine"] != "pseudo" {
		t.Errorf("Urdu route: %v", ur)
	}
	if es["estimate_basis"] != "default" || q["estimated_seconds"].(float64) <= 0 {
		t.Errorf("nothing measured yet: basis %v, %v s", es["estimate_basis"], q["estimated_seconds"])
	}
	quota := q["quota"].(map[string]any)
	if quota["fits"] != true || quota["used_words"] != 0.0 || quota["left_after"] != 100000-2*words || quota["plan_name"] != "starter" {
		t.Errorf("quota: %v", quota)
	}
	if jobs := s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any); len(jobs) != 0 {
		t.Errorf("a quote made %d jobs", len(jobs))
	}

	// Held: pending, nothing started or charged, until confirmed.
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full", "hold": "true"})
	if r.status != http.StatusAccepted {
		t.Fatalf("hold: %d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	time.Sleep(3 * time.Second)
	j := s.getPatiently("/v1/jobs/"+id, key).json(t)
	if j["status"] != "pending" || j["stage"] != "accepted" || j["held_until"] == nil {
		t.Fatalf("held job after 3 s: %v", j)
	}
	if used := s.getPatiently("/v1/usage", key).json(t)["used_words"]; used != 0.0 {
		t.Errorf("a held job charged %v words", used)
	}
	c := s.do("POST", "/v1/jobs/"+id+"/confirm", key, nil, "")
	if c.status != 200 || c.json(t)["held_until"] != nil {
		t.Fatalf("confirm: %d %s", c.status, c.body)
	}
	if j := s.waitJob(key, id, 2*time.Minute); j["status"] != "completed" {
		t.Fatalf("confirmed job: %v", j)
	}
	if c := s.do("POST", "/v1/jobs/"+id+"/confirm", key, nil, ""); c.status != http.StatusConflict || !contains(c.body, "/v1/problems/conflict") {
		t.Errorf("confirmed twice: %d %s", c.status, c.body)
	}
	_, other, _ := s.account("pro")
	if c := s.do("POST", "/v1/jobs/"+id+"/confirm", other, nil, ""); c.status != 404 {
		t.Errorf("another account's job confirmed: %d", c.status)
	}

	// Translated once: the memory holds it, and Apertium has been timed.
	q = s.quote(key, map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"})
	es = q["targets"].([]any)[0].(map[string]any)
	if es["engine_characters"] != 0.0 || es["segments_in_memory"] != q["segments"] || es["estimate_basis"] != "measured" {
		t.Errorf("quote after the translation: %v (segments %v)", es, q["segments"])
	}
	if leg := es["route"].([]any)[0].(map[string]any); leg["chars_per_second"].(float64) <= 0 {
		t.Errorf("measured rate %v", leg)
	}

	// Not confirmed in time: dropped by the sweep (every 15 s), charging nothing.
	r = s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English", "hold": "true"})
	drop := r.json(t)["job_id"].(string)
	usedBefore := s.getPatiently("/v1/usage", key).json(t)["used_words"]
	j = s.waitJob(key, drop, 90*time.Second)
	if j["status"] != "failed" || !strings.Contains(j["error"].(string), "not confirmed") || !strings.Contains(j["error"].(string), "nothing was charged") {
		t.Fatalf("held job past its hold: %v", j)
	}
	if used := s.getPatiently("/v1/usage", key).json(t)["used_words"]; used != usedBefore {
		t.Errorf("a dropped job charged: %v → %v", usedBefore, used)
	}
	if c := s.do("POST", "/v1/jobs/"+drop+"/confirm", key, nil, ""); c.status != http.StatusConflict {
		t.Errorf("confirming a dropped job: %d %s", c.status, c.body)
	}

	// The JSON form takes the translate-url fields; other content types are 415.
	if r := s.do("POST", "/v1/quote", key, strings.NewReader(`{"url":"ftp://x/a.docx"}`), "application/json"); r.status != 400 {
		t.Errorf("quote of a bad URL: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/v1/quote", key, strings.NewReader("x"), "text/plain"); r.status != http.StatusUnsupportedMediaType {
		t.Errorf("quote as text: %d %s", r.status, r.body)
	}
}

// quote posts englishDocx to POST /v1/quote with fields.
func (s *server) quote(key string, fields map[string]string) map[string]any {
	s.t.Helper()
	r := s.uploadFileTo("/v1/quote", key, englishDocx, fields)
	if r.status != 200 {
		s.t.Fatalf("quote: %d %s", r.status, r.body)
	}
	return r.json(s.t)
}

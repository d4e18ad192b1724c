package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestLanguagesFollowTheEngines(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, oldFour...)) // apertium only
	_, key, _ := s.account("pro")
	langs := s.do("GET", "/v1/languages", key, nil, "").json(t)["languages"].([]any)
	have := map[string]bool{}
	for _, l := range langs {
		have[l.(string)] = true
	}
	if !have["Spanish"] || !have["English"] || have["Arabic"] {
		t.Errorf("apertium languages = %v", langs)
	}
	// A pair no configured engine serves is refused when the source is given.
	p := problem(t, s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Japanese", "source_lang": "English"}), 422)
	if !strings.Contains(p["message"].(string), "/v1/languages") {
		t.Errorf("message does not say where the valid languages are: %v", p["message"])
	}

	ps := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, pk, _ := ps.account("pro")
	all := ps.do("GET", "/v1/languages", pk, nil, "").json(t)["languages"].([]any)
	if len(all) < 45 {
		t.Errorf("pseudo serves every registry language; got %d", len(all))
	}
	// Names are case-insensitive and codes are aliases.
	r := ps.uploadFile(pk, englishDocx, map[string]string{"target_lang": "hebrew", "source_lang": "en"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	acc := r.json(t)
	if acc["rtl_fidelity"] == nil {
		t.Error("an RTL target gets an rtl_fidelity estimate in the 202")
	}
	j := ps.waitJob(pk, acc["job_id"].(string), time.Minute)
	if j["status"] != "completed" || j["target_lang"] != "Hebrew" || j["engine"] != "pseudo" {
		t.Fatalf("job: %v", j)
	}
	if j["rtl_fidelity"] == nil {
		t.Error("an RTL job reports rtl_fidelity")
	}
	d := ps.do("GET", "/v1/jobs/"+acc["job_id"].(string)+"/download", pk, nil, "")
	_, text := docxRuns(t, d.body, "")
	if !regexp.MustCompile(`[\x{0590}-\x{05FF}]`).MatchString(text) {
		t.Errorf("no Hebrew letters in the output: %q", text)
	}
}

func TestWebhookRegistration(t *testing.T) {
	s := startServer(t, []string{"--allow-private-urls"})
	_, key, _ := s.account("pro")
	for _, path := range []string{"/v1/webhooks", "/api/webhooks"} {
		r := s.do("POST", path, key, strings.NewReader(`{"url":"https://hooks.example.org/dragoman","events":["job.completed","job.failed"]}`), "application/json")
		if r.status != 201 {
			t.Fatalf("%s: %d %s", path, r.status, r.body)
		}
		w := r.json(t)
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(w["secret"].(string)) || w["is_active"] != true || w["id"] == "" || w["created_at"] == nil {
			t.Errorf("%s: %s", path, r.body)
		}
	}
	problem(t, s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"https://hooks.example.org/x","events":["job.started"]}`), "application/json"), 422)
	problem(t, s.do("POST", "/api/webhooks", "", strings.NewReader(`{"url":"https://hooks.example.org/x","events":["job.failed"]}`), "application/json"), 401)
}

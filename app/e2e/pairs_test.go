package e2e

import (
	"strings"
	"testing"
)

// languageList GETs a language list as a set.
func languageList(t *testing.T, s *server, key, path string) map[string]bool {
	t.Helper()
	r := s.do("GET", path, key, nil, "")
	if r.status != 200 {
		t.Fatalf("%s: %d %s", path, r.status, r.body)
	}
	out := map[string]bool{}
	for _, l := range r.json(t)["languages"].([]any) {
		out[l.(string)] = true
	}
	return out
}

// TestLanguagesAUserCanGet (issue 10, issue 22 §2): the language list
// holds only targets reachable from some source, ?source= narrows it to
// one source, /languages/pairs names every served pair with the languages
// between and its engine, and a source-auto upload whose detected pair no
// engine serves is refused with 422 before a job exists. The server runs
// with the four pairs of old (an engine list, whatever the machine has).
func TestLanguagesAUserCanGet(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, oldFour...))
	_, key, _ := s.account("pro")
	all := languageList(t, s, key, "/v1/languages")
	pr := s.do("GET", "/v1/languages/pairs", key, nil, "")
	if pr.status != 200 {
		t.Fatalf("pairs: %d %s", pr.status, pr.body)
	}
	targets := map[string]bool{}
	var enFr, esFr bool
	for _, p := range pr.json(t)["pairs"].([]any) {
		m := p.(map[string]any)
		src, tgt, eng := m["source"].(string), m["target"].(string), m["engine"].(string)
		targets[tgt] = true
		if eng != "apertium" {
			t.Errorf("pair %s→%s: engine %q", src, tgt, eng)
		}
		if src == "English" && tgt == "French" { // over a chain through Spanish
			via, _ := m["via"].([]any)
			enFr = len(via) == 1 && via[0] == "Spanish" && len(m["engines"].([]any)) == 2
		}
		esFr = esFr || src == "Spanish" && tgt == "French" && len(m["via"].([]any)) == 0
	}
	if !enFr || !esFr {
		t.Errorf("pairs: English→French through Spanish %v, Spanish→French direct %v", enFr, esFr)
	}
	if len(all) != len(targets) || len(all) != 5 {
		t.Errorf("GET /languages lists %d targets, the pairs reach %d, want 5 (%v)", len(all), len(targets), all)
	}
	for l := range all {
		if !targets[l] {
			t.Errorf("GET /languages lists %s, which no served pair reaches", l)
		}
	}
	fromEn := languageList(t, s, key, "/v1/languages?source=English")
	if len(fromEn) != 4 || !fromEn["Spanish"] || !fromEn["French"] || fromEn["English"] {
		t.Errorf("targets from English = %v, want Catalan, French, Galician, Spanish", fromEn)
	}
	if !languageList(t, s, key, "/v1/languages?source=es")["French"] {
		t.Error("French is reachable from Spanish (codes are aliases)")
	}
	problem(t, s.do("GET", "/v1/languages?source=Klingon", key, nil, ""), 422)

	p := problem(t, s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Italian"}), 422)
	if msg, _ := p["message"].(string); !strings.Contains(msg, "into Italian") || !strings.Contains(msg, "make deps installs every one") {
		t.Errorf("refusal does not say how Apertium gets Italian: %v", p["message"])
	}
	if r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish"}); r.status != 202 {
		t.Errorf("English→Spanish with source auto: %d %s", r.status, r.body)
	}

	// A target some source reaches, but not the detected one.
	s = startServer(t, nil, "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, append(oldFour, "urd-hin")...))
	_, key, _ = s.account("pro")
	p = problem(t, s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Hindi"}), 422)
	if msg, _ := p["message"].(string); !strings.Contains(msg, "detected as English") || !strings.Contains(msg, "source=en") {
		t.Errorf("refusal does not say what was detected and where to look: %v", p["message"])
	}
}

package e2e

import (
	"strings"
	"testing"
)

// TestLanguagesAUserCanGet (issue 10): the language list holds only
// targets reachable from some source, ?source= narrows it to one source,
// /languages/pairs names every served pair with its engine, and a
// source-auto upload whose detected pair no engine serves is refused with
// 422 before a job exists.
func TestLanguagesAUserCanGet(t *testing.T) {
	s := startServer(t, nil, apertiumModes(t, makeDepsModes...)) // apertium: en↔es, en↔ca, en↔gl, es↔fr
	_, key, _ := s.account("pro")
	list := func(path string) map[string]bool {
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
	all := list("/v1/languages")
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
		if !strings.Contains(eng, "apertium") {
			t.Errorf("pair %s→%s: engine %q", src, tgt, eng)
		}
		enFr = enFr || src == "English" && tgt == "French"
		esFr = esFr || src == "Spanish" && tgt == "French"
	}
	if enFr || !esFr {
		t.Errorf("pairs: English→French %v (want false), Spanish→French %v (want true)", enFr, esFr)
	}
	if len(all) != len(targets) {
		t.Errorf("GET /languages lists %d targets, the pairs reach %d", len(all), len(targets))
	}
	for l := range all {
		if !targets[l] {
			t.Errorf("GET /languages lists %s, which no served pair reaches", l)
		}
	}
	fromEn := list("/v1/languages?source=English")
	if !fromEn["Spanish"] || fromEn["French"] || fromEn["English"] {
		t.Errorf("targets from English = %v", fromEn)
	}
	if list("/v1/languages?source=es")["French"] != true {
		t.Error("French is reachable from Spanish (codes are aliases)")
	}
	problem(t, s.do("GET", "/v1/languages?source=Klingon", key, nil, ""), 422)

	p := problem(t, s.uploadFile(key, englishDocx, map[string]string{"target_lang": "French"}), 422)
	if msg, _ := p["message"].(string); !strings.Contains(msg, "detected as English") || !strings.Contains(msg, "source=en") {
		t.Errorf("refusal does not say what was detected and where to look: %v", p["message"])
	}
	if r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish"}); r.status != 202 {
		t.Errorf("English→Spanish with source auto: %d %s", r.status, r.body)
	}
}

package e2e

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReachWithEveryPair (issue 22 "Done when"): with every pair Debian
// ships, GET /v1/languages lists at least 36 languages, at least 16 of them
// from English; the contract's default target (Arabic) is refused saying
// exactly what to do; a pair three legs apart is translated over its chain
// and the job shows the route.
func TestReachWithEveryPair(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, everyDebianMode...))
	_, key, _ := s.account("pro")
	all := languageList(t, s, key, "/v1/languages")
	fromEn := languageList(t, s, key, "/v1/languages?source=en")
	t.Logf("GET /v1/languages: %d; from English: %d", len(all), len(fromEn))
	if len(all) < 36 {
		t.Errorf("GET /v1/languages lists %d languages, want at least 36: %v", len(all), all)
	}
	for _, want := range []string{"Urdu", "Asturian", "Sardinian", "Franco-Provençal", "Serbian", "Portuguese (Brazil)", "Catalan (Valencian)", "Silesian", "Belarusian"} {
		if !all[want] {
			t.Errorf("GET /v1/languages lacks %s", want)
		}
	}
	if len(fromEn) < 16 || !fromEn["French"] || !fromEn["Franco-Provençal"] || fromEn["Urdu"] {
		t.Errorf("from English: %d targets %v, want at least 16 with French and Franco-Provençal", len(fromEn), fromEn)
	}
	if from := languageList(t, s, key, "/v1/languages?source=Hindi"); len(from) != 1 || !from["Urdu"] {
		t.Errorf("from Hindi: %v, want Urdu", from)
	}

	// The first request a new user makes: no target_lang, so Arabic.
	p := problem(t, s.uploadFile(key, englishDocx, nil), 422)
	msg, _ := p["message"].(string)
	for _, want := range []string{"into Arabic", "Urdu (from Hindi)", "more (GET /v1/languages lists them)", "DRAGOMAN_ENGINES=apertium,openai", "llama.cpp", "DRAGOMAN_DEEPL_API_KEY"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the default target's refusal lacks %q: %s", want, msg)
		}
	}

	// English → Franco-Provençal: three legs (English → Spanish → French →
	// Franco-Provençal), one engine.
	r := s.uploadFile(key, englishDocx, map[string]string{"source_lang": "English", "target_lang": "Franco-Provençal"})
	if r.status != 202 {
		t.Fatalf("English→Franco-Provençal: %d %s", r.status, r.body)
	}
	j := s.waitJob(key, r.json(t)["job_id"].(string), 3*time.Minute)
	if j["status"] != "completed" || j["engine"] != "apertium" {
		t.Fatalf("job: %v", j)
	}
	var legs []string
	for _, l := range j["route"].([]any) {
		m := l.(map[string]any)
		legs = append(legs, fmt.Sprintf("%s→%s %s", m["source"], m["target"], m["engine"]))
	}
	if got := strings.Join(legs, ", "); got != "English→Spanish apertium, Spanish→French apertium, French→Franco-Provençal apertium" {
		t.Errorf("route %q", got)
	}
	var warned bool
	for _, w := range j["warnings"].([]any) {
		warned = warned || strings.Contains(w.(string), "through Spanish and French")
	}
	if !warned {
		t.Errorf("no warning names the languages between: %v", j["warnings"])
	}
}

// TestPairsCommandSaysWhatIsReached (issue 22 §6): dragoman pairs, which
// make run prints, names the targets from English, the right-to-left
// targets and how to enable Arabic, Hebrew and Persian, whichever pairs are
// installed (Hindi→Urdu made this fail before).
func TestPairsCommandSaysWhatIsReached(t *testing.T) {
	bin := binaries(t)
	run := func(modes []string, args ...string) string {
		cmd := exec.Command(filepath.Join(bin, "dragoman"), append([]string{"pairs", "--plugin-dir", filepath.Join(bin, "plugins")}, args...)...)
		cmd.Env = append(cmd.Environ(), "DRAGOMAN_APERTIUM_DIR="+apertiumWith(t, modes...))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("pairs %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	out := run(oldFour, "--engines", "apertium")
	for _, want := range []string{"English → Spanish", "From English, 4 targets", "Right-to-left targets: none", "Arabic, Hebrew, Persian, Urdu: no enabled engine", "DRAGOMAN_ENGINES=apertium,openai"} {
		if !strings.Contains(out, want) {
			t.Errorf("old four: output lacks %q:\n%s", want, out)
		}
	}
	out = run(append(oldFour, "hin-urd", "urd-hin"), "--engines", "apertium", "--summary")
	for _, want := range []string{"Right-to-left targets: Urdu (from Hindi)", "Arabic, Hebrew, Persian: no enabled engine", "DRAGOMAN_OPENAI_BASE_URL="} {
		if !strings.Contains(out, want) {
			t.Errorf("with Hindi→Urdu: output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "English → Spanish") {
		t.Errorf("--summary lists every pair:\n%s", out)
	}
	out = run(oldFour, "--engines", "pseudo")
	if !strings.Contains(out, "pseudo: every pair") || strings.Contains(out, "no enabled engine") {
		t.Errorf("pairs (pseudo):\n%s", out)
	}
}

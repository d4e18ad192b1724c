package e2e

import (
	"bytes"
	"crypto/rand"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

const englishDocx = "../../testdata/e2e/english.docx"

// runs returns the text of the runs of document.xml whose properties
// contain prop (e.g. "<w:b/>"), and the document's whole text.
func docxRuns(t *testing.T, docx []byte, prop string) (marked []string, text string) {
	t.Helper()
	xml := docxPart(t, docx, "word/document.xml")
	if xml == nil {
		t.Fatal("output has no word/document.xml")
	}
	runRe := regexp.MustCompile(`(?s)<w:r>(.*?)</w:r>|<w:r [^>]*>(.*?)</w:r>`)
	tRe := regexp.MustCompile(`(?s)<w:t(?: [^>]*)?>(.*?)</w:t>`)
	var all strings.Builder
	for _, m := range runRe.FindAllSubmatch(xml, -1) {
		inner := m[1]
		if inner == nil {
			inner = m[2]
		}
		var rt strings.Builder
		for _, tm := range tRe.FindAllSubmatch(inner, -1) {
			rt.Write(tm[1])
		}
		all.WriteString(rt.String())
		if prop != "" && bytes.Contains(inner, []byte(prop)) && strings.TrimSpace(rt.String()) != "" {
			marked = append(marked, strings.TrimSpace(rt.String()))
		}
	}
	return marked, all.String()
}

func hyperlinkText(t *testing.T, docx []byte) string {
	m := regexp.MustCompile(`(?s)<w:hyperlink [^>]*r:id="rId5"[^>]*>(.*?)</w:hyperlink>`).FindSubmatch(docxPart(t, docx, "word/document.xml"))
	if m == nil {
		t.Fatal("the hyperlink rId5 is gone from the output")
	}
	var s strings.Builder
	for _, tm := range regexp.MustCompile(`<w:t(?: [^>]*)?>(.*?)</w:t>`).FindAllSubmatch(m[1], -1) {
		s.Write(tm[1])
	}
	return s.String()
}

// TestClientFlow is the specification's flow with real Apertium: upload an
// English .docx, poll, download a Spanish .docx with formatting on the
// right words.
func TestClientFlow(t *testing.T) {
	s := startServer(t, []string{"--download-ttl", "4s"})
	_, key, _ := s.account("pro")

	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English", "translation_mode": "full"})
	if r.status != http.StatusAccepted {
		t.Fatalf("translate: %d %s", r.status, r.body)
	}
	acc := r.json(t)
	for _, f := range []string{"job_id", "status", "created_at", "poll_url", "rtl_fidelity"} {
		if _, ok := acc[f]; !ok {
			t.Errorf("202 body lacks %q: %s", f, r.body)
		}
	}
	id, _ := acc["job_id"].(string)
	if acc["status"] != "pending" || acc["poll_url"] != "/v1/jobs/"+id {
		t.Errorf("202 body: %s", r.body)
	}
	if acc["rtl_fidelity"] != nil {
		t.Errorf("English to Spanish: rtl_fidelity = %v, want null", acc["rtl_fidelity"])
	}

	j := s.waitJob(key, id, 2*time.Minute)
	if j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	for _, f := range []string{"job_id", "status", "source_lang", "target_lang", "created_at", "completed_at", "download_url", "error", "rtl_fidelity"} {
		if _, ok := j[f]; !ok {
			t.Errorf("job status lacks %q", f)
		}
	}
	if j["source_lang"] != "English" || j["target_lang"] != "Spanish" || j["download_url"] != "/v1/jobs/"+id+"/download" || j["error"] != nil {
		t.Errorf("job status: %v", j)
	}
	if j["engine"] != "apertium" {
		t.Errorf("engine = %v, want apertium", j["engine"])
	}

	d := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if d.status != 200 {
		t.Fatalf("download: %d %s", d.status, d.body)
	}
	if ct := d.header.Get("Content-Type"); ct != "application/vnd.openxmlformats-officedocument.wordprocessingml.document" {
		t.Errorf("Content-Type = %q", ct)
	}
	if cd := d.header.Get("Content-Disposition"); !strings.Contains(cd, `filename=english.es.docx`) {
		t.Errorf("Content-Disposition = %q", cd)
	}
	bold, text := docxRuns(t, d.body, "<w:b/>")
	for _, w := range []string{"casa", "perro", "gato", "agua", "calle"} {
		if !strings.Contains(strings.ToLower(text), w) {
			t.Errorf("translated text lacks %q: %q", w, text)
		}
	}
	if strings.Contains(text, "The house") || strings.Contains(text, "street") {
		t.Errorf("English left in the output: %q", text)
	}
	if len(bold) != 1 || !strings.EqualFold(bold[0], "rojo") {
		t.Errorf("bold runs = %q, want the translation of 'red' (rojo)", bold)
	}
	italic, _ := docxRuns(t, d.body, "<w:i/>")
	if len(italic) != 1 || !strings.Contains(strings.ToLower(italic[0]), "grande") {
		t.Errorf("italic runs = %q, want the translation of 'big'", italic)
	}
	if link := hyperlinkText(t, d.body); !strings.EqualFold(strings.TrimSpace(link), "río") {
		t.Errorf("hyperlink text = %q, want río", link)
	}

	// The download window closes: 410, and the file is gone.
	time.Sleep(4500 * time.Millisecond)
	g := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if g.status != http.StatusGone {
		t.Errorf("download after the window: %d %s", g.status, g.body)
	}
	problem(t, g, 410)
	if r := s.do("GET", "/v1/jobs/"+id, key, nil, ""); r.status != 200 {
		t.Errorf("the job record must outlive its file: %d", r.status)
	}
}

// problem checks the one error body of the API: RFC 9457 problem details
// (type, title, status, detail, instance) with the members of the body
// before it kept (code, message).
func problem(t *testing.T, r response, status int) map[string]any {
	t.Helper()
	if r.status != status {
		t.Errorf("status %d, want %d: %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/problem+json" {
		t.Errorf("error Content-Type %q is not application/problem+json", ct)
	}
	p := r.json(t)
	typ, _ := p["type"].(string)
	instance, _ := p["instance"].(string)
	if int(p["status"].(float64)) != status || p["message"] == "" || p["code"] == "" || p["title"] == "" ||
		p["detail"] != p["message"] || typ != "/v1/problems/"+p["code"].(string) || !strings.HasPrefix(instance, "/") {
		t.Errorf("problem body: %s", r.body)
	}
	return p
}

func TestErrors(t *testing.T) {
	s := startServer(t, nil)
	acct, key, keyID := s.account("free")
	_, otherKey, _ := s.account("pro")

	t.Run("401 missing and invalid key", func(t *testing.T) {
		problem(t, s.do("GET", "/v1/usage", "", nil, ""), 401)
		problem(t, s.do("GET", "/v1/usage", "dgm_notakey", nil, ""), 401)
		problem(t, s.do("GET", "/v1/usage", "dgm_"+strings.Repeat("A", 43), nil, ""), 401)
	})
	t.Run("health needs no key", func(t *testing.T) {
		r := s.do("GET", "/v1/health", "", nil, "")
		if r.status != 200 || r.json(t)["ok"] != true {
			t.Errorf("health: %d %s", r.status, r.body)
		}
	})
	t.Run("422 missing file and wrong type", func(t *testing.T) {
		problem(t, s.upload(otherKey, "", nil, map[string]string{"target_lang": "Spanish"}), 422)
		p := problem(t, s.upload(otherKey, "notes.docx", strings.NewReader("just some text, not a document"), nil), 422)
		if strings.Contains(p["message"].(string), "just some text") {
			t.Error("the error echoes the request body")
		}
		if p := problem(t, s.uploadFile(otherKey, englishDocx, map[string]string{"target_lang": "Klingon"}), 422); strings.Contains(p["message"].(string), "Klingon") {
			t.Error("the error echoes the request value")
		}
		problem(t, s.uploadFile(otherKey, englishDocx, map[string]string{"translation_mode": "poetic"}), 422)
	})
	t.Run("413 over 50 MB, streamed", func(t *testing.T) {
		// A zip signature, then 51 MB: accepted by the sniffer, refused by size.
		big := io.MultiReader(strings.NewReader("PK\x03\x04"), io.LimitReader(rand.Reader, 51<<20))
		problem(t, s.upload(otherKey, "big.docx", big, nil), 413)
	})
	t.Run("404 another account's job", func(t *testing.T) {
		r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
		if r.status != 202 {
			t.Fatalf("%d %s", r.status, r.body)
		}
		id := r.json(t)["job_id"].(string)
		problem(t, s.do("GET", "/v1/jobs/"+id, otherKey, nil, ""), 404)
		problem(t, s.do("GET", "/v1/jobs/"+id+"/download", otherKey, nil, ""), 404)
		problem(t, s.do("GET", "/v1/jobs/00000000-0000-4000-8000-000000000000", otherKey, nil, ""), 404)
	})
	t.Run("402 quota exhausted", func(t *testing.T) {
		a, k, _ := s.account("enterprise")
		s.admin("account", "set-plan", "--account", a, "--plan", "enterprise", "--limit-words", "0")
		problem(t, s.uploadFile(k, englishDocx, map[string]string{"target_lang": "Spanish"}), 402)
		u := s.do("GET", "/v1/usage", k, nil, "").json(t)
		if u["limit_words"].(float64) != 0 || u["plan_name"] != "enterprise" {
			t.Errorf("usage: %v", u)
		}
	})
	t.Run("403 revoked key and suspended account", func(t *testing.T) {
		a, k, kid := s.account("pro")
		s.admin("account", "suspend", "--account", a)
		problem(t, s.do("GET", "/v1/usage", k, nil, ""), 403)
		s.admin("account", "resume", "--account", a)
		if r := s.do("GET", "/v1/usage", k, nil, ""); r.status != 200 {
			t.Errorf("resumed account: %d", r.status)
		}
		s.admin("key", "revoke", "--key", kid)
		problem(t, s.do("GET", "/v1/usage", k, nil, ""), 403)
	})
	t.Run("429 with Retry-After on the free plan", func(t *testing.T) {
		var last response
		for i := 0; i < 12; i++ {
			last = s.do("GET", "/v1/usage", key, nil, "")
			if last.status == 429 {
				break
			}
		}
		problem(t, last, 429)
		ra := last.header.Get("Retry-After")
		if ra == "" || ra == "0" || strings.ContainsAny(ra, ".s") {
			t.Errorf("Retry-After = %q, want whole seconds", ra)
		}
	})
	_ = acct
	_ = keyID
}

func TestHTTPRedirectsToHTTPS(t *testing.T) {
	s := startServer(t, nil)
	req, _ := http.NewRequest("GET", "http://"+s.http+"/v1/jobs/abc?x=1&y=2", nil)
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	_, port, _ := net.SplitHostPort(s.https)
	want := "https://127.0.0.1:" + port + "/v1/jobs/abc?x=1&y=2"
	if resp.StatusCode != http.StatusPermanentRedirect || resp.Header.Get("Location") != want {
		t.Errorf("got %d Location %q, want 308 %q", resp.StatusCode, resp.Header.Get("Location"), want)
	}
}

func TestOpenAPIServedAndDocsOffline(t *testing.T) {
	s := startServer(t, nil)
	r := s.do("GET", "/v1/openapi.json", "", nil, "")
	if r.status != 200 {
		t.Fatalf("openapi.json: %d", r.status)
	}
	doc := r.json(t)
	if !strings.HasPrefix(doc["openapi"].(string), "3.1") {
		t.Errorf("openapi = %v", doc["openapi"])
	}
	paths := doc["paths"].(map[string]any)
	for _, p := range []string{"/health", "/languages", "/usage", "/translate", "/translate-url", "/jobs/{job_id}", "/jobs/{job_id}/download", "/webhooks", "/api/webhooks"} {
		if _, ok := paths[p]; !ok {
			t.Errorf("contract lacks %s", p)
		}
	}
	if y := s.do("GET", "/v1/openapi.yaml", "", nil, ""); y.status != 200 || !contains(y.body, "openapi: 3.1") {
		t.Errorf("openapi.yaml: %d", y.status)
	}
	d := s.do("GET", "/v1/docs", "", nil, "")
	if d.status != 200 || !contains(d.body, "docs/swagger-ui-bundle.js") || !contains(d.body, "docs/a11y.css") || contains(d.body, "cdn") || contains(d.body, "unpkg") {
		t.Errorf("docs page: %d %s", d.status, d.body)
	}
	if js := s.do("GET", "/v1/docs/swagger-ui-bundle.js", "", nil, ""); js.status != 200 || len(js.body) < 100_000 {
		t.Errorf("docs assets are not served from the binary: %d, %d bytes", js.status, len(js.body))
	}
}

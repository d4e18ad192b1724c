package e2e

import (
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A quote takes what the translate endpoints take, with their defaults,
// and refuses what they refuse with the same problem: corrupt, encrypted
// and unsupported documents, over 50 MB, malformed or unknown JSON fields,
// a URL that is no document; and a document over the plan's per-document
// word cap, at which its job would fail.
func TestQuoteAnswersAsTranslateDoes(t *testing.T) {
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls"}, "DRAGOMAN_ENGINES=pseudo")
	key := enterpriseKey(t, s)
	fields := map[string]string{"target_lang": "Spanish", "source_lang": "English"}

	bad, _ := filepath.Glob(filepath.Join(corpusDir, "bad", "*"))
	refused := 0
	for _, f := range bad {
		name := filepath.Base(f)
		r := s.uploadFile(key, f, fields)
		q := s.uploadFileTo("/v1/quote", key, f, fields)
		if r.status == http.StatusAccepted {
			if q.status != http.StatusOK {
				t.Errorf("%s: translated, but its quote is %d %s", name, q.status, q.body)
			}
			continue
		}
		refused++
		tp, qp := r.json(t), problem(t, q, r.status)
		if qp["type"] != tp["type"] || !strings.HasSuffix(qp["detail"].(string), tp["detail"].(string)) {
			t.Errorf("%s: translate says %d %v, the quote %d %v", name, r.status, tp["detail"], q.status, qp["detail"])
		}
	}
	if refused < 8 {
		t.Errorf("only %d of %d bad documents refused at upload", refused, len(bad))
	}

	// Over 50 MB, streamed or announced.
	problem(t, s.uploadTo("/v1/quote", key, "notes.docx", strings.NewReader(strings.Repeat("x", 52<<20)), nil), http.StatusRequestEntityTooLarge)
	body := "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"notes.docx\"\r\n\r\n" + strings.Repeat("x", 52<<20) + "\r\n--B--\r\n"
	problem(t, s.do("POST", "/v1/quote", key, strings.NewReader(body), "multipart/form-data; boundary=B"), http.StatusRequestEntityTooLarge)

	// No target: Arabic, as for a job.
	q := s.uploadFileTo("/v1/quote", key, englishDocx, map[string]string{"source_lang": "English"})
	if q.status != http.StatusOK || q.json(t)["targets"].([]any)[0].(map[string]any)["target_lang"] != "Arabic" {
		t.Errorf("quote without target_lang: %d %s", q.status, q.body)
	}

	// The JSON form is POST /translate-url's body, checked alike.
	report := docs.URL + "/files/report.docx"
	for _, b := range []string{
		`{"url":"` + report + `"}`,
		`{"url":"` + report + `","target_lang":"Spanish","pdf":true,"bilingual":true}`,
		`{"url":"` + report + `","target_lang":"Spanish","colour":"blue"}`,
		`{"url":"` + report + `","translation_mode":"fast"}`,
		`{"url":"` + report + `","target_lang":5}`,
		`{"url":"` + report + `","target_langs":"Spanish"}`,
		`{"url":"` + report + `","pdf":"yes"}`,
		`{"url":"` + report + `"`,
		`{"target_lang":"Spanish"}`,
		`{"url":"` + docs.URL + `/notes.txt"}`,
		`{"url":"` + docs.URL + `/missing.docx"}`,
		`{"url":"ftp://example.org/a.docx"}`,
	} {
		r := s.do("POST", "/v1/translate-url", key, strings.NewReader(b), "application/json")
		q := s.do("POST", "/v1/quote", key, strings.NewReader(b), "application/json")
		if r.status == http.StatusAccepted {
			if q.status != http.StatusOK {
				t.Errorf("%s: translate-url 202, quote %d %s", b, q.status, q.body)
			}
			continue
		}
		if q.status != r.status || locations(t, q) != locations(t, r) {
			t.Errorf("%s:\ntranslate-url %d %s\nquote %d %s", b, r.status, r.body, q.status, q.body)
		}
	}

	// Over the plan's cap per document (10,000 words on free): its job
	// would fail, so the quote says so at once, as a batch does.
	acct, free, _ := s.account("free")
	s.admin("account", "set-plan", "--account", acct, "--plan", "free", "--limit-words", "1000000", "--requests-per-minute", "1000")
	long := docxFrom(t, "long.docx", withBody(strings.Repeat("<w:p><w:r><w:t>"+strings.Repeat("word ", 100)+"</w:t></w:r></w:p>", 101)), nil)
	q = s.uploadFileTo("/v1/quote", free, long, fields)
	if p := problem(t, q, http.StatusUnprocessableEntity); !strings.Contains(fmt.Sprint(p["detail"]), "cap of 10000 words per document") {
		t.Errorf("quote over the cap: %s", q.body)
	}
	r := s.uploadFile(free, long, fields)
	if r.status != http.StatusAccepted {
		t.Fatalf("translate over the cap: %d %s", r.status, r.body)
	}
	if j := s.waitJob(free, r.json(t)["job_id"].(string), 2*time.Minute); j["status"] != "failed" || !strings.Contains(fmt.Sprint(j["error"]), "cap of 10000 words per document") {
		t.Errorf("the job over the cap: %v", j)
	}
}

// locations are a problem's field locations, sorted.
func locations(t *testing.T, r response) string {
	var out []string
	errs, _ := r.json(t)["errors"].([]any)
	for _, e := range errs {
		out = append(out, fmt.Sprint(e.(map[string]any)["location"]))
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

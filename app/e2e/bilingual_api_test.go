package e2e

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The bilingual document through the API as its users drive it: asked for
// on translate-url (JSON) as on an upload, bilingual_url on the job (null
// when not asked) and in job.completed (absent when not asked: the
// specification's nine fields only), and ?format=bilingual under the
// download's rules: another account's job, a job not completed and a job
// that did not ask are 404 problems; a bad value of the field is 422.
func TestBilingualAPIAndWebhook(t *testing.T) {
	rcv := newReceiver(t, 0)
	docs := docServer(t)
	s := startServer(t, []string{"--allow-private-urls", "--public-url", "https://dragoman.example.com"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("enterprise")
	reg := s.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	secret := reg.json(t)["secret"].(string)

	if r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "bilingual": "maybe"}); r.status != 422 || !contains(r.body, "bilingual") {
		t.Errorf("bilingual=maybe: %d %s", r.status, r.body)
	}
	if r := s.do("POST", "/v1/translate-url", key, strings.NewReader(`{"url":"`+docs.URL+`/files/report.docx","target_lang":"Arabic","bilingual":"yes"}`), "application/json"); r.status != 422 || !contains(r.body, "bilingual") {
		t.Errorf(`translate-url "bilingual":"yes": %d %s`, r.status, r.body)
	}
	submit := func(r response) string {
		t.Helper()
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		return r.json(t)["job_id"].(string)
	}
	fromURL := submit(s.do("POST", "/v1/translate-url", key, strings.NewReader(
		`{"url":"`+docs.URL+`/files/report.docx","target_lang":"Arabic","source_lang":"English","bilingual":true}`), "application/json"))
	without := submit(s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English"}))
	held := submit(s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English", "bilingual": "true", "hold": "true"}))

	for id, want := range map[string]any{fromURL: "/v1/jobs/" + fromURL + "/download?format=bilingual", without: nil} {
		if j := s.waitJob(key, id, 3*time.Minute); j["status"] != "completed" || j["bilingual_url"] != want {
			t.Errorf("job %s: status %v, bilingual_url %v (want %v), warnings %v", id, j["status"], j["bilingual_url"], want, j["warnings"])
		}
	}

	// job.completed: the absolute address for the job that asked, no
	// field at all for the other.
	for _, d := range rcv.wait(t, 2, time.Minute) {
		data := d.payload["data"].(map[string]any)
		id := data["job_id"].(string)
		checkPayload(t, d, secret, "job.completed", id, acct) // the nine fields and the documented extensions only
		got, present := data["bilingual_url"]
		switch id {
		case fromURL:
			if want := "https://dragoman.example.com/v1/jobs/" + id + "/download?format=bilingual"; got != want {
				t.Errorf("job.completed of the bilingual job: bilingual_url %v, want %s", got, want)
			}
		case without:
			if present {
				t.Errorf("job.completed of a job that did not ask carries bilingual_url %v: %s", got, d.body)
			}
		default:
			t.Errorf("job.completed of an unknown job %s", id)
		}
	}

	// The document fetched by its address comes back bilingual: the
	// English source beside its Arabic translation.
	d := s.getPatiently("/v1/jobs/"+fromURL+"/download?format=bilingual", key)
	if d.status != 200 || d.header.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.wordprocessingml.document" ||
		!strings.Contains(d.header.Get("Content-Disposition"), `filename=report.ar.bilingual.docx`) {
		t.Fatalf("bilingual download: %d %v", d.status, d.header)
	}
	c := columnsOf(t, d.body)
	if c.ltr[0] != 6 || c.rtl[1] != 6 || !strings.Contains(c.text[0].String(), "The red car is in the street.") || !hasArabicScript(c.text[1].String()) {
		t.Errorf("the bilingual document of a URL job: source %d LTR, translation %d RTL paragraphs\n%s\n%s", c.ltr[0], c.rtl[1], c.text[0].String(), c.text[1].String())
	}

	// The download's rules: each refusal is a problem, with the status the
	// .docx download has in the same case.
	_, other, _ := s.account("enterprise")
	for _, tc := range []struct {
		what, id, key, says string
	}{
		{"another account's job", fromURL, other, ""},
		{"a held job, not completed", held, key, "once the job is completed"},
		{"a job submitted without bilingual", without, key, "without bilingual"},
	} {
		docx := s.getPatiently("/v1/jobs/"+tc.id+"/download", tc.key)
		p := problem(t, s.getPatiently("/v1/jobs/"+tc.id+"/download?format=bilingual", tc.key), http.StatusNotFound)
		if msg, _ := p["detail"].(string); !strings.Contains(msg, tc.says) {
			t.Errorf("%s: %q does not say %q", tc.what, msg, tc.says)
		}
		wantDocx := http.StatusNotFound // the same refusal as the .docx's
		if tc.id == without {
			wantDocx = http.StatusOK
		}
		if docx.status != wantDocx {
			t.Errorf("%s: the .docx download is %d, want %d", tc.what, docx.status, wantDocx)
		}
	}
}

// After the download window the bilingual document goes with the .docx:
// both downloads are 410, whichever comes first, its file is deleted and
// the job no longer offers bilingual_url. The window (10 s) outlasts the
// polling that sees a job completed (at most 2 s apart) with room to
// spare, so the file is still there to be seen, whenever the server's
// sweep (every 15 s) runs; the test then waits out each job's window from
// its completed_at.
func TestBilingualDownloadExpires(t *testing.T) {
	const ttl = 10 * time.Second
	s := startServer(t, []string{"--download-ttl", ttl.String()}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	var ids []string
	for range 2 {
		r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Arabic", "source_lang": "English", "bilingual": "true"})
		if r.status != 202 {
			t.Fatalf("submit: %d %s", r.status, r.body)
		}
		ids = append(ids, r.json(t)["job_id"].(string))
	}
	var expired time.Time // when the later job's window has passed
	for _, id := range ids {
		j := s.waitJob(key, id, 3*time.Minute)
		if j["status"] != "completed" {
			t.Fatalf("job %v", j)
		}
		done, err := time.Parse(time.RFC3339Nano, fmt.Sprint(j["completed_at"]))
		if err != nil {
			t.Fatalf("completed_at %v: %v", j["completed_at"], err)
		}
		if _, err := os.Stat(filepath.Join(s.dataDir, "documents", "jobs", id, "bilingual.docx")); err != nil {
			t.Fatalf("the bilingual document is not stored beside the output %s after completion: %v", time.Since(done).Round(time.Millisecond), err)
		}
		if end := done.Add(ttl + time.Second); end.After(expired) {
			expired = end
		}
	}
	time.Sleep(time.Until(expired))
	for i, id := range ids {
		order := []string{"?format=bilingual", ""} // the first job: the bilingual download first
		if i == 1 {
			order = []string{"", "?format=bilingual"}
		}
		for _, q := range order {
			problem(t, s.do("GET", "/v1/jobs/"+id+"/download"+q, key, nil, ""), http.StatusGone)
		}
		if _, err := os.Stat(filepath.Join(s.dataDir, "documents", "jobs", id, "bilingual.docx")); !os.IsNotExist(err) {
			t.Errorf("job %s: the expired bilingual document is still stored: %v", id, err)
		}
		if j := s.do("GET", "/v1/jobs/"+id, key, nil, "").json(t); j["bilingual_url"] != nil || j["download_url"] != nil {
			t.Errorf("job %s: an expired job still offers bilingual_url %v, download_url %v", id, j["bilingual_url"], j["download_url"])
		}
	}
}

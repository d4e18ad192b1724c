package e2e

import (
	"archive/zip"
	"bytes"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"
)

// batchEngines: Apertium for Spanish, the pseudo engine for Urdu (and any
// other pair), so a batch's targets take different routes.
const batchEngines = "DRAGOMAN_ENGINES=apertium,pseudo"

// One upload to two targets is one batch: a job per target, together in
// GET /v1/batches/{id}, each translated by its own route, the words charged
// per target; a batch that does not fit in the quota is 402 and makes no job.
func TestBatchSeveralTargets(t *testing.T) {
	s := startServer(t, nil, batchEngines)
	acct, key, _ := s.account("starter")
	r := s.uploadFile(key, englishDocx, map[string]string{"target_langs": "Spanish, Urdu", "source_lang": "English", "translation_mode": "full"})
	if r.status != http.StatusAccepted {
		t.Fatalf("translate: %d %s", r.status, r.body)
	}
	b := r.json(t)
	id, _ := b["batch_id"].(string)
	jobs, _ := b["jobs"].([]any)
	if id == "" || len(jobs) != 2 || b["poll_url"] != "/v1/batches/"+id || r.header.Get("Location") != "/v1/batches/"+id {
		t.Fatalf("batch body: %s (Location %q)", r.body, r.header.Get("Location"))
	}
	var ids []string
	for _, j := range jobs {
		acc := j.(map[string]any)
		if acc["status"] != "pending" || acc["poll_url"] != "/v1/jobs/"+acc["job_id"].(string) {
			t.Errorf("job acceptance %v", acc)
		}
		ids = append(ids, acc["job_id"].(string))
	}

	want := map[string]string{ids[0]: "Spanish", ids[1]: "Urdu"}
	words := 0.0
	for _, jid := range ids {
		j := s.waitJob(key, jid, 3*time.Minute)
		if j["status"] != "completed" || j["target_lang"] != want[jid] || j["batch_id"] != id {
			t.Fatalf("job %s: %v", jid, j)
		}
		words = j["total_words"].(float64)
		d := s.getPatiently("/v1/jobs/"+jid+"/download", key)
		_, text := docxRuns(t, d.body, "")
		switch want[jid] {
		case "Spanish":
			if j["engine"] != "apertium" || !strings.Contains(strings.ToLower(text), "casa") {
				t.Errorf("Spanish job: engine %v, text %q", j["engine"], text)
			}
		case "Urdu":
			if j["engine"] != "pseudo" || !hasArabicScript(text) {
				t.Errorf("Urdu job: engine %v, text %q", j["engine"], text)
			}
		}
	}
	bs := s.getPatiently("/v1/batches/"+id, key)
	if bs.status != 200 {
		t.Fatalf("batch: %d %s", bs.status, bs.body)
	}
	bm := bs.json(t)
	counts, _ := bm["counts"].(map[string]any)
	if bm["status"] != "completed" || bm["total"] != 2.0 || counts["completed"] != 2.0 || len(bm["jobs"].([]any)) != 2 {
		t.Errorf("batch status %s", bs.body)
	}
	if first := bm["jobs"].([]any)[0].(map[string]any); first["job_id"] != ids[0] || first["download_url"] == nil {
		t.Errorf("batch's first job %v, want %s with its download_url", first, ids[0])
	}
	used := s.getPatiently("/v1/usage", key).json(t)["used_words"].(float64)
	if words == 0 || used != 2*words {
		t.Errorf("used %v words for two targets of %v words", used, words)
	}

	// Room for one more target but not for two: 402, and no job is made.
	s.admin("account", "set-plan", "--account", acct, "--plan", "starter", "--limit-words", fmt.Sprint(int(used+words*1.5)))
	before := s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any)
	r = s.uploadFile(key, englishDocx, map[string]string{"target_langs": "Spanish,Urdu", "source_lang": "English"})
	if r.status != http.StatusPaymentRequired || !contains(r.body, "no job was started") {
		t.Fatalf("batch over the quota: %d %s", r.status, r.body)
	}
	if after := s.getPatiently("/v1/jobs", key).json(t)["jobs"].([]any); len(after) != len(before) {
		t.Errorf("a refused batch made %d jobs", len(after)-len(before))
	}
	// One target still fits.
	if r = s.uploadFile(key, englishDocx, map[string]string{"target_langs": "Spanish", "source_lang": "English"}); r.status != http.StatusAccepted {
		t.Errorf("one target within the quota: %d %s", r.status, r.body)
	}

	// Another account's batch is not found; a bad target is 422.
	_, other, _ := s.account("pro")
	if r := s.do("GET", "/v1/batches/"+id, other, nil, ""); r.status != 404 {
		t.Errorf("another account's batch: %d", r.status)
	}
	if r := s.uploadFile(other, englishDocx, map[string]string{"target_langs": "Spanish,Klingon"}); r.status != 422 || !contains(r.body, "target_lang") {
		t.Errorf("unknown target: %d %s", r.status, r.body)
	}
}

// A .zip of documents is one batch: every document to every target, other
// entries listed as skipped; translate-url takes target_langs as an array
// (the source left to detection: detected once for the batch); each job
// sends its own job.completed.
func TestBatchOfAZip(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls"}, batchEngines)
	_, key, _ := s.account("pro")
	if reg := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json"); reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	doc, err := os.ReadFile(englishDocx)
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	for name, body := range map[string][]byte{"report.docx": doc, "letters/note.docx": doc, "readme.txt": []byte("hello"), "__MACOSX/._report.docx": []byte("x")} {
		w, _ := zw.Create(name)
		w.Write(body)
	}
	zw.Close()
	r := s.upload(key, "folder.zip", bytes.NewReader(z.Bytes()), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if r.status != http.StatusAccepted {
		t.Fatalf("zip: %d %s", r.status, r.body)
	}
	b := r.json(t)
	jobs, _ := b["jobs"].([]any)
	if len(jobs) != 2 || fmt.Sprint(b["skipped"]) != "[readme.txt]" {
		t.Fatalf("zip batch: %s", r.body)
	}
	names := map[string]bool{}
	var ids []string
	for _, j := range jobs {
		ids = append(ids, j.(map[string]any)["job_id"].(string))
		done := s.waitJob(key, ids[len(ids)-1], 3*time.Minute)
		if done["status"] != "completed" {
			t.Fatalf("job %v", done)
		}
		names[done["original_name"].(string)] = true
	}
	if !names["report.docx"] || !names["note.docx"] {
		t.Errorf("job names %v", names)
	}

	// translate-url: target_langs is a JSON array.
	docs := docServer(t)
	body := `{"url":"` + docs.URL + `/files/report.docx","target_langs":["Spanish","Urdu"]}`
	r = s.do("POST", "/v1/translate-url", key, strings.NewReader(body), "application/json")
	if r.status != http.StatusAccepted || len(r.json(t)["jobs"].([]any)) != 2 {
		t.Fatalf("translate-url batch: %d %s", r.status, r.body)
	}
	for _, j := range r.json(t)["jobs"].([]any) {
		ids = append(ids, j.(map[string]any)["job_id"].(string))
		done := s.waitJob(key, ids[len(ids)-1], 3*time.Minute)
		if done["status"] != "completed" || done["original_name"] != "report.docx" || done["source_lang"] != "English" {
			t.Errorf("translate-url batch job %v", done)
		}
	}
	// One job.completed per job of the batches.
	got := map[string]int{}
	for _, d := range rcv.wait(t, len(ids), time.Minute) {
		data, _ := d.payload["data"].(map[string]any)
		if d.event == "job.completed" && data != nil {
			got[fmt.Sprint(data["job_id"])]++
		}
	}
	for _, id := range ids {
		if got[id] != 1 {
			t.Errorf("job %s: %d job.completed, want 1 (all: %v)", id, got[id], got)
		}
	}

	// A zip with no document is refused.
	var empty bytes.Buffer
	zw = zip.NewWriter(&empty)
	w, _ := zw.Create("photo.jpg")
	w.Write([]byte("jpeg"))
	zw.Close()
	if r := s.upload(key, "photos.zip", &empty, map[string]string{"target_lang": "Spanish"}); r.status != 422 || !contains(r.body, "no document") {
		t.Errorf("zip without documents: %d %s", r.status, r.body)
	}
}

func hasArabicScript(s string) bool {
	for _, r := range s {
		if unicode.Is(unicode.Arabic, r) {
			return true
		}
	}
	return false
}

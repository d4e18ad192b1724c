package e2e

import (
	"strings"
	"testing"
	"time"
)

// bigDocx repeats the body of english.docx n times (about 40 words each).
func bigDocx(t *testing.T, n int) string {
	t.Helper()
	return docxFrom(t, "big.docx", func(body string) string { return strings.Repeat(body, n) }, nil)
}

// TestKillDuringProcessingStillCompletes kills the server (SIGKILL, plugins
// included) while a job is processing; after a restart on the same data
// dir the job reaches exactly one terminal state, completed, and its
// output downloads.
func TestKillDuringProcessingStillCompletes(t *testing.T) {
	s := startServer(t, nil)
	_, key, _ := s.account("pro")
	r := s.uploadFile(key, bigDocx(t, 1500), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if r.status != 202 {
		t.Fatalf("%d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)

	deadline := time.Now().Add(time.Minute)
	for {
		j := s.do("GET", "/v1/jobs/"+id, key, nil, "").json(t)
		if j["status"] == "processing" {
			break
		}
		if j["status"] != "pending" || time.Now().After(deadline) {
			t.Fatalf("job did not stay in flight long enough to kill: %v", j["status"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	s.kill()
	s.start()

	j := s.waitJob(key, id, 3*time.Minute)
	if j["status"] != "completed" || j["error"] != nil {
		t.Fatalf("after restart: %v", j)
	}
	d := s.getPatiently("/v1/jobs/"+id+"/download", key)
	if d.status != 200 {
		t.Fatalf("download: %d", d.status)
	}
	_, text := docxRuns(t, d.body, "")
	if !strings.Contains(text, "casa") {
		t.Error("output is not translated")
	}
	// It stays completed: a redelivered event must not move it again.
	time.Sleep(2 * time.Second)
	if j2 := s.getPatiently("/v1/jobs/"+id, key).json(t); j2["status"] != "completed" || j2["completed_at"] != j["completed_at"] {
		t.Errorf("job changed after completion: %v", j2)
	}
	// Words are charged once.
	u := s.getPatiently("/v1/usage", key).json(t)
	if int(u["used_words"].(float64)) != int(j["total_words"].(float64)) {
		t.Errorf("used_words %v, job words %v", u["used_words"], j["total_words"])
	}
}

package e2e

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRetentionAndFileDeletion: after the download window the output is
// deleted from storage (410); after the retention the job is gone (404).
func TestRetentionAndFileDeletion(t *testing.T) {
	s := startServer(t, []string{"--download-ttl", "1s", "--job-retention", "4s"}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "French", "source_lang": "English"})
	id := r.json(t)["job_id"].(string)
	if j := s.waitJob(key, id, time.Minute); j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	jobDir := filepath.Join(s.dataDir, "documents", "jobs", id)
	if _, err := os.Stat(filepath.Join(jobDir, "output.docx")); err != nil {
		t.Fatalf("output not stored where expected: %v", err)
	}
	time.Sleep(1200 * time.Millisecond)
	problem(t, s.do("GET", "/v1/jobs/"+id+"/download", key, nil, ""), http.StatusGone)
	if _, err := os.Stat(filepath.Join(jobDir, "output.docx")); !os.IsNotExist(err) {
		t.Errorf("the expired output is still stored: %v", err)
	}
	if j := s.do("GET", "/v1/jobs/"+id, key, nil, "").json(t); j["download_url"] != nil {
		t.Errorf("an expired job still offers a download_url: %v", j["download_url"])
	}
	time.Sleep(3 * time.Second)
	problem(t, s.do("GET", "/v1/jobs/"+id, key, nil, ""), http.StatusNotFound)
}

// TestTrustedProxyIsServedOverHTTP: a proxy that terminated TLS forwards
// plain HTTP with X-Forwarded-Proto: https; from a trusted address it is
// served, from anyone else it is redirected.
func TestTrustedProxyIsServedOverHTTP(t *testing.T) {
	s := startServer(t, []string{"--trusted-proxies", "127.0.0.1/32"})
	req, _ := http.NewRequest("GET", "http://"+s.http+"/v1/health", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("trusted proxy: %d, want 200", resp.StatusCode)
	}
	req.Header.Del("X-Forwarded-Proto")
	resp, err = s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPermanentRedirect {
		t.Errorf("plain HTTP without the header: %d, want 308", resp.StatusCode)
	}

	u := startServer(t, nil) // no trusted proxies: the header is not believed
	req, _ = http.NewRequest("GET", "http://"+u.http+"/v1/health", nil)
	req.Header.Set("X-Forwarded-Proto", "https")
	resp, err = u.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusPermanentRedirect {
		t.Errorf("untrusted X-Forwarded-Proto: %d, want 308", resp.StatusCode)
	}
}

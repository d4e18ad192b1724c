package main

import (
	"encoding/json"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serve names the flag and variable that pick another port when one is
// taken; pairs lists what the installed engines serve and how to add a
// right-to-left one.
func TestServePortTakenAndPairs(t *testing.T) {
	bin := binaries(t)
	for _, tc := range []struct{ flag, env string }{{"--https-addr", "DRAGOMAN_HTTPS_ADDR"}, {"--http-addr", "DRAGOMAN_HTTP_ADDR"}} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		args := []string{"serve", "--data-dir", t.TempDir(), "--plugin-dir", filepath.Join(bin, "plugins"),
			"--https-addr", freePort(t), "--http-addr", freePort(t), tc.flag, ln.Addr().String()}
		out, err := exec.Command(filepath.Join(bin, "dragoman"), args...).CombinedOutput()
		ln.Close()
		if err == nil || !strings.Contains(string(out), "is taken by another program: pick another with "+tc.flag+" or "+tc.env) {
			t.Errorf("%s taken: %v\n%s", tc.flag, err, out)
		}
	}
	// The pairs are those the test gives Apertium, whatever the machine has
	// installed: with no right-to-left target, the hint to add an engine.
	pairs := exec.Command(filepath.Join(bin, "dragoman"), "pairs", "--plugin-dir", filepath.Join(bin, "plugins"), "--engines", "apertium")
	pairs.Env = append(os.Environ(), apertiumModes(t, makeDepsModes...))
	out, err := pairs.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "apertium: 8 pairs\n") || !strings.Contains(string(out), "English → Spanish") || !strings.Contains(string(out), "DRAGOMAN_ENGINES=apertium,openai") {
		t.Errorf("pairs (apertium): %v\n%s", err, out)
	}
	out, err = exec.Command(filepath.Join(bin, "dragoman"), "pairs", "--plugin-dir", filepath.Join(bin, "plugins"), "--engines", "pseudo").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "pseudo: every pair") || strings.Contains(string(out), "No enabled engine") {
		t.Errorf("pairs (pseudo): %v\n%s", err, out)
	}
}

// DELETE /v1/jobs/{id} on a real server while the job is in flight: it
// ends failed with "cancelled", job.failed reaches the webhook, and its
// words are given back (usage is only the other, completed job's).
func TestCancelInFlightJobFiresJobFailedAndGivesWordsBack(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls", "--workers", "1"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	reg := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.failed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	secret := reg.json(t)["secret"].(string)
	fields := map[string]string{"target_lang": "Arabic", "source_lang": "English"}
	keep := s.uploadFile(key, corpusDocs(t, "aspose-Big_document.docx")[0], fields).json(t)["job_id"].(string)
	gone := s.uploadFile(key, corpusDocs(t, "oxsdk-Complex01.docx")[0], fields).json(t)["job_id"].(string)
	r := s.do("DELETE", "/v1/jobs/"+gone, key, nil, "")
	if r.status != 200 {
		t.Fatalf("cancel: %d %s", r.status, r.body)
	}
	if j := r.json(t); j["status"] != "failed" || j["error"] != "cancelled" {
		t.Fatalf("cancelled job: %v", j)
	}
	d := rcv.wait(t, 1, 30*time.Second)[0]
	data := checkPayload(t, d, secret, "job.failed", gone, acct)
	if data["error"] != "cancelled" {
		t.Errorf("job.failed payload error %v", data["error"])
	}
	done := s.waitJob(key, keep, 2*time.Minute)
	if done["status"] != "completed" {
		t.Fatalf("the other job: %v", done)
	}
	time.Sleep(time.Second) // a stage of the cancelled job still running settles it again
	var u struct {
		UsedWords int64 `json:"used_words"`
	}
	_ = json.Unmarshal(s.do("GET", "/v1/usage", key, nil, "").body, &u)
	if want := int64(done["total_words"].(float64)); u.UsedWords != want {
		t.Errorf("%d words used, want %d (only the completed job)", u.UsedWords, want)
	}
	if st := s.waitJob(key, gone, time.Minute); st["status"] != "failed" || st["error"] != "cancelled" {
		t.Errorf("the cancelled job became %v", st)
	}
}

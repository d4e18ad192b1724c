package e2e

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// suspendedReason is what a stopped job's error says (the pipeline's
// SuspendedReason, part of the contract the README states).
const suspendedReason = "the account was suspended: the job was stopped and its words were not charged"

// TestSuspendedAccountStopsItsJobs: an account suspended while its jobs
// run (issue 26: they still completed) has them stopped at their next
// stage: each ends failed with the reason, job.failed reaches its
// webhook, and its words are given back; a job that completed before the
// suspension stays charged. Keys are refused meanwhile; resuming does not
// restart the stopped jobs.
func TestSuspendedAccountStopsItsJobs(t *testing.T) {
	rcv := newReceiver(t, 0)
	s := startServer(t, []string{"--allow-private-urls", "--workers", "1"}, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	reg := s.do("POST", "/v1/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register: %d %s", reg.status, reg.body)
	}
	// Five jobs with a PDF each, one worker a stage: some are in flight
	// or queued when the account is suspended.
	fields := map[string]string{"target_lang": "Arabic", "source_lang": "English", "pdf": "true"}
	docs := corpusDocs(t, "aspose-Big_document.docx", "oxsdk-Complex01.docx", "aspose-Nested_tables.docx", "aspose-TextBoxes.docx", "aspose-Hyperlinks.docx")
	ids := map[string]bool{}
	for _, d := range docs {
		r := s.uploadFile(key, d, fields)
		if r.status != 202 {
			t.Fatalf("upload %s: %d %s", d, r.status, r.body)
		}
		ids[r.json(t)["job_id"].(string)] = true
	}
	s.admin("account", "suspend", "--account", acct)
	if r := s.do("GET", "/v1/usage", key, nil, ""); r.status != 403 {
		t.Errorf("a suspended account's key: %d", r.status)
	}

	// One webhook per job: completed before the suspension, or stopped.
	stopped := 0
	for _, d := range rcv.wait(t, len(docs), 3*time.Minute) {
		data, _ := d.payload["data"].(map[string]any)
		id, _ := data["job_id"].(string)
		if !ids[id] {
			t.Fatalf("a webhook for an unknown job: %s", d.body)
		}
		switch {
		case d.event == "job.failed" && data["error"] == suspendedReason:
			stopped++
		case d.event == "job.completed":
		default:
			t.Errorf("job %s: %s %v", id, d.event, data["error"])
		}
	}
	if stopped == 0 {
		t.Fatal("no job was stopped: all five completed before the suspension took effect")
	}
	time.Sleep(time.Second) // nothing more comes
	if n := len(rcv.wait(t, 0, 0)); n != len(docs) {
		t.Errorf("%d webhooks for %d jobs", n, len(docs))
	}

	// Resumed: the stopped jobs stay failed, and only the completed ones
	// are charged.
	s.admin("account", "resume", "--account", acct)
	var charged int64
	for id := range ids {
		j := s.getPatiently("/v1/jobs/"+id, key).json(t)
		switch j["status"] {
		case "completed":
			charged += int64(j["total_words"].(float64))
		case "failed":
			if j["error"] != suspendedReason {
				t.Errorf("job %s failed with %v", id, j["error"])
			}
		default:
			t.Errorf("job %s is %v after the resume", id, j["status"])
		}
	}
	var u struct {
		UsedWords int64 `json:"used_words"`
	}
	_ = json.Unmarshal(s.getPatiently("/v1/usage", key).body, &u)
	if u.UsedWords != charged {
		t.Errorf("%d words used, want %d (the completed jobs only)", u.UsedWords, charged)
	}
	t.Logf("%d of %d jobs stopped by the suspension, %d words charged", stopped, len(docs), charged)
}

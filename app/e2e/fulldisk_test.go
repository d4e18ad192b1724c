package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A full disk (issue 26 §4: a bare 500 and a ready probe at 200): the
// server runs on a data dir of its own, a 256 MB tmpfs mounted in a mount
// namespace of its own, which the test fills through /proc/<pid>/root.
// Submissions and polls are answered 503 with Retry-After and a problem
// naming what is full, /v1/ready says so, and once room is made the same
// requests pass.
func TestFullDiskAnswers503(t *testing.T) {
	s := newServer(t, nil)
	wrap := []string{"unshare", "--mount", "--propagation", "private"}
	if os.Geteuid() != 0 {
		wrap = append(wrap, "--map-root-user")
	}
	s.wrap = append(wrap, "--", "sh", "-c", `mount -t tmpfs -o size=256m tmpfs "$0" && exec "$@"`, s.dataDir)
	s.start()
	t.Cleanup(s.stop)
	// The test sees the tmpfs through the server's root, and runs the admin
	// CLI in the server's namespace (SQLite resolves /proc/<pid>/root as a
	// symbolic link to /, which is not the server's disk).
	pid := strconv.Itoa(s.cmd.Process.Pid)
	inside := filepath.Join("/proc", pid, "root", s.dataDir)
	var st syscall.Statfs_t
	if err := syscall.Statfs(inside, &st); err != nil || st.Blocks*uint64(st.Bsize) > 300<<20 {
		t.Fatalf("the data dir is not the server's own 256 MB disk: %v, %d bytes", err, st.Blocks*uint64(st.Bsize))
	}
	enter := []string{"nsenter", "--target", pid, "--mount"}
	if os.Geteuid() != 0 {
		enter = append(enter, "--user", "--preserve-credentials")
	}
	admin := func(args ...string) map[string]any {
		cmd := exec.Command(enter[0], append(append(enter[1:], "--", filepath.Join(binaries(t), "dragoman"), "admin"), append(args, "--data-dir", s.dataDir)...)...)
		out, err := cmd.Output()
		var m map[string]any
		if err != nil || json.Unmarshal(out, &m) != nil {
			t.Fatalf("admin %v in the server's namespace: %v %s", args, err, out)
		}
		return m
	}
	acct := admin("account", "create", "--plan", "pro", "--name", "full")["account_id"].(string)
	key := admin("key", "create", "--account", acct)["api_key"].(string)
	if r := s.do("GET", "/v1/ready", "", nil, ""); r.status != 200 {
		t.Fatalf("ready before the disk is full: %d %s", r.status, r.body)
	}

	filler := filepath.Join(inside, "filler")
	fill(t, filler)
	for _, req := range []struct{ method, path string }{{"GET", "/v1/usage"}, {"GET", "/v1/jobs/none"}} {
		r := s.do(req.method, req.path, key, nil, "")
		var p struct{ Code, Detail string }
		json.Unmarshal(r.body, &p)
		secs, _ := strconv.Atoi(r.header.Get("Retry-After"))
		if r.status != 503 || secs < 1 || p.Code != "unavailable" || !strings.Contains(p.Detail, "full") {
			t.Errorf("%s %s on a full disk: %d Retry-After %q %s", req.method, req.path, r.status, r.header.Get("Retry-After"), r.body)
		}
	}
	if r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish"}); r.status != 503 || r.header.Get("Retry-After") == "" {
		t.Errorf("submission on a full disk: %d %s", r.status, r.body)
	}
	r := s.do("GET", "/v1/ready", "", nil, "")
	var ready struct{ Checks map[string]string }
	json.Unmarshal(r.body, &ready)
	if r.status != 503 || !strings.HasPrefix(ready.Checks["database"], "the database is full") || !strings.HasPrefix(ready.Checks["blobs"], "the document store is full") {
		t.Errorf("ready on a full disk: %d %s", r.status, r.body)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	if r := s.do("GET", "/v1/ready", "", nil, ""); r.status != 200 {
		t.Errorf("ready once room is made: %d %s", r.status, r.body)
	}
	if r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"}); r.status != 202 {
		t.Fatalf("submission once room is made: %d %s", r.status, r.body)
	} else if j := s.waitJob(key, r.json(t)["job_id"].(string), 2*time.Minute); j["status"] != "completed" {
		t.Errorf("job once room is made: %v", j)
	}
}

// fill writes to path until the disk holding it is full.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := make([]byte, 1<<20)
	for {
		if _, err := f.Write(block); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	for { // the last partial block
		if _, err := f.Write(block[:4096]); err != nil {
			break
		}
	}
}

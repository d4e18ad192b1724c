package e2e

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// cli runs the client binary against s with key and returns stdout,
// stderr and the exit status.
func (s *server) cli(key string, args ...string) (string, string, int) {
	s.t.Helper()
	cmd := s.cliCmd(key, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		s.t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

func (s *server) cliCmd(key string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(binaries(s.t), "dragoman"), args...)
	cmd.Env = append(os.Environ(), "DRAGOMAN_URL=https://"+s.https, "DRAGOMAN_KEY="+key,
		"DRAGOMAN_CA="+filepath.Join(s.dataDir, "tls", "cert.pem"))
	return cmd
}

func corpusDocs(t *testing.T, names ...string) []string {
	var out []string
	for _, n := range names {
		p := filepath.Join("..", "..", "testdata", "corpus", "docx", n)
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}

// Several corpus files at once through the pseudo engine: every one is
// written as NAME.ar.docx, with rtl_fidelity and progress lines; then the
// other commands read the same account back, human and --json.
func TestCLITranslateSeveralFilesPseudo(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	out := t.TempDir()
	files := append(corpusDocs(t, "aspose-Hyperlinks.docx", "aspose-Nested_tables.docx"), "../../testdata/e2e/english.docx")
	stdout, stderr, code := s.cli(key, append(append([]string{"translate"}, files...), "--to", "Arabic", "--from", "English", "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".docx") + ".ar.docx"
		if _, err := zip.OpenReader(filepath.Join(out, name)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(stdout, filepath.Base(f)+": uploading") || !strings.Contains(stdout, filepath.Base(f)+" → "+filepath.Join(out, name)) {
			t.Errorf("no progress or result line for %s:\n%s", f, stdout)
		}
	}
	if n := strings.Count(stdout, "rtl_fidelity: "); n != len(files) {
		t.Errorf("%d rtl_fidelity lines, want %d:\n%s", n, len(files), stdout)
	}

	var list struct {
		Jobs []struct {
			JobID  string `json:"job_id"`
			Status string `json:"status"`
			Stage  string `json:"stage"`
		} `json:"jobs"`
	}
	stdout, _, code = s.cli(key, "jobs", "list", "--json", "--limit", "2", "--all")
	if err := json.Unmarshal([]byte(stdout), &list); err != nil || code != 0 || len(list.Jobs) != 3 {
		t.Fatalf("jobs list --json --all over pages of 2: %d %v\n%s", code, err, stdout)
	}
	for _, j := range list.Jobs {
		if j.Status != "completed" || j.Stage != "finished" {
			t.Errorf("job %+v", j)
		}
	}
	id := list.Jobs[0].JobID
	if stdout, _, code = s.cli(key, "jobs", "get", id); code != 0 || !strings.Contains(stdout, "completed") {
		t.Errorf("jobs get: %d\n%s", code, stdout)
	}
	dl := t.TempDir()
	if stdout, _, code = s.cli(key, "jobs", "download", id, "--out", dl); code != 0 || !strings.HasSuffix(strings.TrimSpace(stdout), ".ar.docx") {
		t.Errorf("jobs download: %d\n%s", code, stdout)
	}
	if stdout, _, code = s.cli(key, "usage"); code != 0 || !strings.Contains(stdout, "words used this month (pro plan)") {
		t.Errorf("usage: %d\n%s", code, stdout)
	}
	if stdout, _, code = s.cli(key, "languages", "--from", "English", "--json"); code != 0 || !strings.Contains(stdout, `"Hebrew"`) {
		t.Errorf("languages: %d\n%s", code, stdout)
	}
	if stdout, _, code = s.cli(key, "jobs", "cancel", id); code != 0 || !strings.Contains(stdout, "finished job deleted") {
		t.Errorf("cancel of a finished job: %d\n%s", code, stdout)
	}
	if _, stderr, code = s.cli(key, "jobs", "get", id); code != 1 || !strings.Contains(stderr, "HTTP 404") {
		t.Errorf("deleted job: %d %s", code, stderr)
	}

	// Webhooks and signatures.
	var reg struct {
		ID     string `json:"id"`
		Secret string `json:"secret"`
	}
	stdout, _, code = s.cli(key, "webhooks", "add", "https://example.com/hook", "--json")
	if err := json.Unmarshal([]byte(stdout), &reg); err != nil || code != 0 || len(reg.Secret) != 64 {
		t.Fatalf("webhooks add: %d %v %s", code, err, stdout)
	}
	if stdout, _, _ = s.cli(key, "webhooks", "list"); !strings.Contains(stdout, reg.ID) {
		t.Errorf("webhooks list:\n%s", stdout)
	}
	if stdout, _, code = s.cli(key, "webhooks", "deliveries", reg.ID); code != 0 || !strings.Contains(stdout, "ATTEMPT") {
		t.Errorf("webhooks deliveries: %d\n%s", code, stdout)
	}
	if _, _, code = s.cli(key, "webhooks", "delete", reg.ID); code != 0 {
		t.Errorf("webhooks delete: %d", code)
	}
	body := `{"id":"e1","event":"job.completed"}`
	sign := s.cliCmd(key, "verify-signature", "--secret", reg.Secret)
	sign.Stdin = strings.NewReader(body)
	sig, err := sign.Output()
	if err != nil || !regexp.MustCompile(`^sha256=[0-9a-f]{64}\n$`).Match(sig) {
		t.Fatalf("signature %q %v", sig, err)
	}
	for _, tc := range []struct {
		body string
		code int
	}{{body, 0}, {body + " ", 1}} {
		v := s.cliCmd(key, "verify-signature", "--secret", reg.Secret, "--signature", strings.TrimSpace(string(sig)))
		v.Stdin = strings.NewReader(tc.body)
		err := v.Run()
		if got := v.ProcessState.ExitCode(); got != tc.code {
			t.Errorf("verify %q: exit %d (%v), want %d", tc.body, got, err, tc.code)
		}
	}
}

// Apertium (the default engine) through the CLI.
func TestCLITranslateApertium(t *testing.T) {
	s := startServer(t, nil)
	_, key, _ := s.account("pro")
	out := t.TempDir()
	files := append(corpusDocs(t, "aspose-Hyperlinks.docx"), "../../testdata/e2e/english.docx")
	stdout, stderr, code := s.cli(key, append(append([]string{"translate"}, files...), "--to", "Spanish", "--from", "English", "--out", out, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	var res struct {
		Results []struct {
			Output string `json:"output"`
			Job    struct {
				Engine string `json:"engine"`
			} `json:"job"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || len(res.Results) != 2 {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	for _, r := range res.Results {
		if r.Job.Engine != "apertium" || !strings.HasSuffix(r.Output, ".es.docx") {
			t.Errorf("result %+v", r)
		}
		if _, err := zip.OpenReader(r.Output); err != nil {
			t.Error(err)
		}
	}
}

// A plan of 4 requests a minute: the CLI waits out the 429s as
// Retry-After says and still finishes; then, with the month's words used
// up, the 402 is reported and the exit status is 1.
func TestCLIWaitsOut429AndReports402(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	acct, key, _ := s.account("pro")
	s.admin("account", "set-plan", "--account", acct, "--plan", "pro", "--requests-per-minute", "3")
	out := t.TempDir()
	stdout, stderr, code := s.cli(key, "translate", "../../testdata/e2e/english.docx", "--to", "Russian", "--from", "English", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "rate limited: waiting") {
		t.Errorf("no 429 was waited out:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, "english.ru.docx")); err != nil {
		t.Fatal(err)
	}
	s.admin("account", "set-plan", "--account", acct, "--plan", "pro", "--limit-words", "10")
	stdout, stderr, code = s.cli(key, "translate", "../../testdata/e2e/english.docx", "--to", "Russian", "--from", "English", "--out", out)
	if code != 1 || !strings.Contains(stdout, "HTTP 402 quota_exhausted") || !strings.Contains(stdout, "1 of 1 failed") {
		t.Fatalf("402: exit %d\n%s\n%s", code, stdout, stderr)
	}
}

// Ctrl-C while documents are in flight: the CLI cancels every job it
// started that had not finished, and exits 130.
func TestCLICtrlCCancelsItsJobs(t *testing.T) {
	s := startServer(t, []string{"--workers", "1"}, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	files := corpusDocs(t, "aspose-Big_document.docx", "oxsdk-Complex01.docx", "oxsdk-Strict01.docx", "aspose-Nested_tables.docx")
	cmd := s.cliCmd(key, append(append([]string{"translate"}, files...), "--to", "Arabic", "--from", "English", "--out", t.TempDir())...)
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen bytes.Buffer
	accepted := make(chan struct{})
	go func() {
		var once sync.Once
		buf := make([]byte, 4096)
		for {
			n, err := pr.Read(buf)
			mu.Lock()
			seen.Write(buf[:n])
			if strings.Count(seen.String(), "(job ") >= 2 {
				once.Do(func() { close(accepted) })
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	select {
	case <-accepted:
	case <-time.After(60 * time.Second):
		t.Fatal("no job was accepted within a minute")
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	pw.Close()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Fatalf("exit after SIGINT: %v\n%s", err, errb.String())
	}
	r := s.do("GET", "/v1/jobs?limit=100", key, nil, "")
	var list struct {
		Jobs []struct {
			Status string  `json:"status"`
			Error  *string `json:"error"`
		} `json:"jobs"`
	}
	if err := json.Unmarshal(r.body, &list); err != nil || len(list.Jobs) == 0 {
		t.Fatalf("jobs: %v %s", err, r.body)
	}
	cancelled := 0
	for _, j := range list.Jobs {
		switch {
		case j.Status == "failed" && j.Error != nil && *j.Error == "cancelled":
			cancelled++
		case j.Status == "completed":
		default:
			t.Errorf("job left %s after Ctrl-C", j.Status)
		}
	}
	if cancelled == 0 {
		t.Fatalf("no job was cancelled:\n%s", seen.String())
	}
	var u struct {
		UsedWords int64 `json:"used_words"`
	}
	_ = json.Unmarshal(s.do("GET", "/v1/usage", key, nil, "").body, &u)
	var completedWords int64
	r = s.do("GET", "/v1/jobs?status=completed", key, nil, "")
	var done struct {
		Jobs []struct {
			TotalWords int64 `json:"total_words"`
		} `json:"jobs"`
	}
	_ = json.Unmarshal(r.body, &done)
	for _, j := range done.Jobs {
		completedWords += j.TotalWords
	}
	if u.UsedWords != completedWords {
		t.Errorf("%d words used, but the completed jobs count %d: the cancelled jobs' words were not all given back", u.UsedWords, completedWords)
	}
}

// On a terminal the CLI draws bars (mpb) instead of lines.
func TestCLIProgressBarsInAPseudoTerminal(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	cmd := s.cliCmd(key, "translate", "../../testdata/e2e/english.docx", "--to", "Hebrew", "--from", "English", "--out", t.TempDir())
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 120})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&out, tty); close(copied) }()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	select {
	case <-copied:
	case <-time.After(5 * time.Second):
	}
	got := out.String()
	if !strings.Contains(got, "100 %") || !strings.Contains(got, "\x1b[") {
		t.Fatalf("no progress bar drawn:\n%q", got)
	}
	if strings.Contains(got, "english.docx: uploading") {
		t.Fatalf("plain progress lines on a terminal:\n%q", got)
	}
	if !strings.Contains(got, "english.he.docx") || !strings.Contains(got, "rtl_fidelity:") {
		t.Fatalf("no summary:\n%q", got)
	}
}

// serve names the flag and variable that pick another port when one is
// taken; pairs lists what the installed engines serve and how to add a
// right-to-left one.
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

// DELETE ?keep_finished=true only cancels: a job that completed is left as
// it is (200 with the job, still downloadable), which is what the CLI and
// the SDK send when they stop the jobs they started; a plain DELETE still
// deletes it (204).
func TestCancelKeepFinishedLeavesACompletedJob(t *testing.T) {
	s := startServer(t, nil, "DRAGOMAN_ENGINES=pseudo")
	_, key, _ := s.account("pro")
	id := s.uploadFile(key, "../../testdata/e2e/english.docx", map[string]string{"target_lang": "Arabic", "source_lang": "English"}).json(t)["job_id"].(string)
	if j := s.waitJob(key, id, 2*time.Minute); j["status"] != "completed" {
		t.Fatalf("job: %v", j)
	}
	r := s.do("DELETE", "/v1/jobs/"+id+"?keep_finished=true", key, nil, "")
	if r.status != 200 || r.json(t)["status"] != "completed" {
		t.Fatalf("keep_finished on a completed job: %d %s", r.status, r.body)
	}
	if d := s.do("GET", "/v1/jobs/"+id+"/download", key, nil, ""); d.status != 200 {
		t.Fatalf("download after keep_finished: %d", d.status)
	}
	if r := s.do("DELETE", "/v1/jobs/"+id, key, nil, ""); r.status != 204 {
		t.Fatalf("plain DELETE of a completed job: %d %s", r.status, r.body)
	}
	if g := s.do("GET", "/v1/jobs/"+id, key, nil, ""); g.status != 404 {
		t.Errorf("deleted job: %d", g.status)
	}
}

package e2e

import (
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/blobstore/s3test"
	"github.com/dragoman-translate/dragoman/adapters/sqlstore/pgtest"
)

// scaleOut is the shared state of a scale-out deployment: PostgreSQL,
// S3-compatible storage (versitygw) and a standalone NATS JetStream.
type scaleOut struct {
	dbURL  string
	s3     *s3test.Server
	bucket string
	args   []string // serve flags every process gets
	env    []string
}

func startScaleOut(t *testing.T) *scaleOut {
	t.Helper()
	return newScaleOut(pgtest.Database(t), s3test.Start(t), startNATS(t))
}

// newScaleOut is the deployment on the given database, S3 server and NATS.
func newScaleOut(dbURL string, s3 *s3test.Server, natsURL string) *scaleOut {
	so := &scaleOut{dbURL: dbURL, s3: s3, bucket: "dragoman-docs"}
	so.args = []string{
		"--database-url", so.dbURL,
		"--nats-url", natsURL,
		"--blob-url", so.s3.URL(so.bucket),
		// Every process must decrypt the webhook secrets the others stored.
		"--secret-key", strings.Repeat("5a", 32),
		// The test's webhook receiver is on loopback.
		"--allow-private-urls",
	}
	so.env = []string{"DRAGOMAN_S3_ACCESS_KEY=" + so.s3.AccessKey, "DRAGOMAN_S3_SECRET_KEY=" + so.s3.SecretKey}
	return so
}

// process starts one `dragoman serve` of the deployment in role (all,
// api or worker), with its own (otherwise unused) data dir.
func (so *scaleOut) process(t testing.TB, role string) *server {
	t.Helper()
	return startServer(t, append(append([]string(nil), so.args...), "--role", role), so.env...)
}

// admin runs the admin CLI on the deployment's database from an empty
// data dir, as an operator's machine would.
func (so *scaleOut) admin(t testing.TB, args ...string) map[string]any {
	t.Helper()
	args = append(append([]string{"admin"}, args...), "--database-url", so.dbURL, "--data-dir", t.TempDir())
	out, err := exec.Command(filepath.Join(binaries(t), "dragoman"), args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("admin %v: %v\n%s", args, err, ee.Stderr)
		}
		t.Fatalf("admin %v: %v", args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("admin %v printed %q", args, out)
	}
	return m
}

// objects lists the keys stored in the bucket (versitygw's posix backend
// keeps one file per object under <dir>/<bucket>).
func (so *scaleOut) objects(t *testing.T, prefix string) []string {
	t.Helper()
	root := filepath.Join(so.s3.Dir, so.bucket)
	var keys []string
	err := filepath.WalkDir(filepath.Join(root, filepath.FromSlash(prefix)), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if !d.IsDir() && !strings.HasPrefix(d.Name(), ".") {
			rel, _ := filepath.Rel(root, p)
			keys = append(keys, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestScaleOut runs two api and two worker processes on one PostgreSQL,
// one bucket and one NATS: a document uploaded to one api process is
// processed by the workers, polled and downloaded through the other api
// process; a job in flight on a worker killed with SIGKILL is finished by
// the other worker; every job ends in exactly one terminal state and its
// webhook receives exactly one job.completed delivery.
func TestScaleOut(t *testing.T) {
	so := startScaleOut(t)
	a, b := so.process(t, "api"), so.process(t, "api")
	w1, w2 := so.process(t, "worker"), so.process(t, "worker")

	acct := so.admin(t, "account", "create", "--plan", "pro", "--name", "scale-out")
	id := acct["account_id"].(string)
	// The per-minute limit is counted in the shared database, across
	// both processes; polling needs more than the plan's 60.
	if p := so.admin(t, "account", "set-plan", "--account", id, "--plan", "pro", "--requests-per-minute", "10000"); p["requests_per_minute"] != 10000.0 {
		t.Fatalf("set-plan: %v", p)
	}
	key := so.admin(t, "key", "create", "--account", id)["api_key"].(string)
	rcv := newReceiver(t, 0)
	reg := a.do("POST", "/api/webhooks", key, strings.NewReader(`{"url":"`+rcv.srv.URL+`/hook","events":["job.completed","job.failed"]}`), "application/json")
	if reg.status != 201 {
		t.Fatalf("register webhook: %d %s", reg.status, reg.body)
	}

	// The harness's servers fail the whole test, so the steps are not
	// subtests.
	workersServeOnlyProbes(t, w1, w2, key)
	jobs := []string{uploadOnOneDownloadFromOther(t, so, a, b, key)}
	revokeOnSharedDatabase(t, so, a, b, id)
	jobs = append(jobs, killWorkerWhileProcessing(t, a, b, w1, w2, key))
	jobs = append(jobs, severalJobs(t, a, b, key, 4)...)
	oneTerminalStatePerJob(t, a, b, key, rcv, jobs)
	// W1 was killed; W2 ended every job after the first.
	jobLatencyWhereRecorded(t, []*server{a, b}, []*server{w2}, float64(len(jobs)-1))
}

// workersServeOnlyProbes: a worker answers the probes and nothing else.
func workersServeOnlyProbes(t *testing.T, w1, w2 *server, key string) {
	for _, w := range []*server{w1, w2} {
		if r := w.do("GET", "/v1/health", "", nil, ""); r.status != 200 {
			t.Errorf("worker health: %d %s", r.status, r.body)
		}
		for _, p := range []string{"/v1/usage", "/v1/languages", "/v1/jobs/x", "/v1/docs", "/"} {
			if r := w.do("GET", p, key, nil, ""); r.status != 404 {
				t.Errorf("worker GET %s: %d, want 404", p, r.status)
			}
		}
		if r := w.do("POST", "/v1/translate", key, strings.NewReader("{}"), "application/json"); r.status != 404 {
			t.Errorf("worker POST /v1/translate: %d, want 404", r.status)
		}
	}
}

// uploadOnOneDownloadFromOther: a document uploaded to A is polled and
// downloaded through B; its documents live in the bucket.
func uploadOnOneDownloadFromOther(t *testing.T, so *scaleOut, a, b *server, key string) string {
	r := a.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if r.status != http.StatusAccepted {
		t.Fatalf("upload on A: %d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	j := b.waitJob(key, id, 2*time.Minute)
	if j["status"] != "completed" {
		t.Fatalf("job polled on B: %v", j)
	}
	d := b.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if d.status != 200 {
		t.Fatalf("download from B: %d %s", d.status, d.body)
	}
	if _, text := docxRuns(t, d.body, ""); !strings.Contains(strings.ToLower(text), "casa") {
		t.Errorf("download from B is not translated: %.200s", text)
	}
	// The documents are in the bucket, not in either process's data dir:
	// the input (kept for the dashboard's preview until the download
	// window ends), the output and the translated segments (kept as long
	// for the XLIFF export), nothing else.
	for i := 0; ; i++ {
		keys := so.objects(t, "jobs/"+id)
		if strings.Join(keys, ",") == "jobs/"+id+"/input,jobs/"+id+"/output.docx,jobs/"+id+"/translated.json" {
			break
		}
		if i == 100 {
			t.Errorf("bucket holds %v for the completed job", keys)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, s := range []*server{a, b} {
		if _, err := os.Stat(filepath.Join(s.dataDir, "documents")); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s has a local documents folder: %v", s.dataDir, err)
		}
	}
	return id
}

// revokeOnSharedDatabase: a key made and revoked with the admin CLI on the
// database works and then stops working on every process.
func revokeOnSharedDatabase(t *testing.T, so *scaleOut, a, b *server, accountID string) {
	k2 := so.admin(t, "key", "create", "--account", accountID)
	for _, s := range []*server{a, b} {
		if r := s.do("GET", "/v1/usage", k2["api_key"].(string), nil, ""); r.status != 200 {
			t.Fatalf("new key on %s: %d", s.https, r.status)
		}
	}
	so.admin(t, "key", "revoke", "--key", k2["key_id"].(string))
	for _, s := range []*server{a, b} {
		if r := s.do("GET", "/v1/usage", k2["api_key"].(string), nil, ""); r.status != 403 {
			t.Errorf("revoked key on %s: %d", s.https, r.status)
		}
	}
}

// killWorkerWhileProcessing: W2 finishes a job that W1 was processing
// when it was killed with SIGKILL, charging its words once. Both workers
// are frozen (SIGSTOP) while the job is accepted, which shows that the api
// processes run no stage: the job stays pending. W1 is then thawed to take
// it, and W2 after the kill: the event W1 never acknowledged comes back to
// W2's consumers after the ack wait (30 s).
func killWorkerWhileProcessing(t *testing.T, a, b, w1, w2 *server, key string) string {
	usedBefore := int(a.do("GET", "/v1/usage", key, nil, "").json(t)["used_words"].(float64))
	freeze(t, w1, syscall.SIGSTOP)
	freeze(t, w2, syscall.SIGSTOP)
	thaw := func() { freeze(t, w1, syscall.SIGCONT); freeze(t, w2, syscall.SIGCONT) }
	// The workers' pull requests were sent before they froze; let them
	// expire on the server (the bus polls for 10 s) so none can take the job.
	time.Sleep(11 * time.Second)
	r := a.uploadFile(key, bigDocx(t, 1500), map[string]string{"target_lang": "Spanish", "source_lang": "English"})
	if r.status != http.StatusAccepted {
		thaw()
		t.Fatalf("upload on A: %d %s", r.status, r.body)
	}
	id := r.json(t)["job_id"].(string)
	time.Sleep(3 * time.Second)
	if j := b.do("GET", "/v1/jobs/"+id, key, nil, "").json(t); j["status"] != "pending" {
		thaw()
		t.Fatalf("with every worker frozen the job is %v: an api process ran a stage", j["status"])
	}
	freeze(t, w1, syscall.SIGCONT)
	deadline := time.Now().Add(time.Minute)
	for {
		j := a.do("GET", "/v1/jobs/"+id, key, nil, "").json(t)
		if j["status"] == "processing" {
			break
		}
		if j["status"] != "pending" || time.Now().After(deadline) {
			freeze(t, w2, syscall.SIGCONT)
			t.Fatalf("job did not stay in flight long enough to kill: %v", j["status"])
		}
		time.Sleep(20 * time.Millisecond)
	}
	w1.kill()
	killed := time.Now()
	freeze(t, w2, syscall.SIGCONT)

	j := b.waitJob(key, id, 3*time.Minute)
	t.Logf("W2 finished W1's job %.1f s after W1 was killed", time.Since(killed).Seconds())
	if j["status"] != "completed" || j["error"] != nil {
		t.Fatalf("after killing W1: %v", j)
	}
	d := b.do("GET", "/v1/jobs/"+id+"/download", key, nil, "")
	if d.status != 200 {
		t.Fatalf("download from B: %d", d.status)
	}
	if _, text := docxRuns(t, d.body, ""); !strings.Contains(text, "casa") {
		t.Error("output is not translated")
	}
	// W1's unacknowledged event comes back to W2 after the ack wait;
	// the job must not move again.
	time.Sleep(2 * time.Second)
	if j2 := a.do("GET", "/v1/jobs/"+id, key, nil, "").json(t); j2["status"] != "completed" || j2["completed_at"] != j["completed_at"] {
		t.Errorf("job changed after completion: %v", j2)
	}
	// Words are charged once, in the shared database.
	used := int(b.do("GET", "/v1/usage", key, nil, "").json(t)["used_words"].(float64))
	if used-usedBefore != int(j["total_words"].(float64)) {
		t.Errorf("charged %d words for a job of %v", used-usedBefore, j["total_words"])
	}
	return id
}

// severalJobs uploads n jobs alternately to A and B, with one worker
// left, and waits for them to complete.
func severalJobs(t *testing.T, a, b *server, key string, n int) []string {
	var ids []string
	for i := range n {
		s := []*server{a, b}[i%2]
		r := s.uploadFile(key, englishDocx, map[string]string{"target_lang": "Spanish", "source_lang": "English"})
		if r.status != http.StatusAccepted {
			t.Fatalf("upload %d: %d %s", i, r.status, r.body)
		}
		ids = append(ids, r.json(t)["job_id"].(string))
	}
	for i, id := range ids {
		if j := []*server{b, a}[i%2].waitJob(key, id, 2*time.Minute); j["status"] != "completed" {
			t.Errorf("job %s: %v", id, j)
		}
	}
	return ids
}

// oneTerminalStatePerJob: every job reads completed, with the same
// completion time, through both api processes, and its webhook got
// exactly one job.completed delivery and no job.failed.
func oneTerminalStatePerJob(t *testing.T, a, b *server, key string, rcv *receiver, ids []string) {
	rcv.wait(t, len(ids), time.Minute)
	time.Sleep(3 * time.Second) // room for a duplicate to arrive
	rcv.mu.Lock()
	got := append([]delivery(nil), rcv.got...)
	rcv.mu.Unlock()
	count := map[string]map[string]int{}
	for _, d := range got {
		data, _ := d.payload["data"].(map[string]any)
		jid, _ := data["job_id"].(string)
		if count[jid] == nil {
			count[jid] = map[string]int{}
		}
		count[jid][d.event]++
	}
	for _, id := range ids {
		ja := a.do("GET", "/v1/jobs/"+id, key, nil, "").json(t)
		jb := b.do("GET", "/v1/jobs/"+id, key, nil, "").json(t)
		if ja["status"] != "completed" || jb["status"] != "completed" || ja["completed_at"] != jb["completed_at"] || ja["completed_at"] == nil {
			t.Errorf("job %s: %v on A, %v on B", id, ja, jb)
		}
		if c := count[id]; c["job.completed"] != 1 || c["job.failed"] != 0 {
			t.Errorf("job %s: webhook deliveries %v, want one job.completed", id, c)
		}
	}
	if len(got) != len(ids) {
		t.Errorf("%d webhook deliveries for %d jobs", len(got), len(ids))
	}
}

// freeze stops (SIGSTOP) or continues (SIGCONT) a server with its plugins.
func freeze(t *testing.T, s *server, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(-s.cmd.Process.Pid, sig); err != nil {
		t.Fatal(err)
	}
}

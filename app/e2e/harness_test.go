package e2e

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// binDir holds bin/dragoman and bin/plugins: DRAGOMAN_BIN (make test sets
// it), or binaries built once into a temporary folder.
var (
	binOnce sync.Once
	binPath string
	binErr  error
)

func binaries(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		if d := os.Getenv("DRAGOMAN_BIN"); d != "" {
			binPath = d
			return
		}
		d, err := os.MkdirTemp("", "dragoman-bin-")
		if err != nil {
			binErr = err
			return
		}
		root, _ := filepath.Abs("../..")
		builds := [][2]string{
			{"dragoman", "./app"},
			{"plugins/dragoman-provider-apertium", "./plugins/apertium"},
			{"plugins/dragoman-provider-pseudo", "./plugins/pseudo"},
		}
		for _, b := range builds {
			cmd := exec.Command("go", "build", "-o", filepath.Join(d, b[0]), b[1])
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				binErr = fmt.Errorf("go build %s: %v\n%s", b[1], err, out)
				return
			}
		}
		binPath = d
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

func freePort(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// syncBuffer collects a process's output while tests read it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func (b *syncBuffer) Bytes() []byte { return []byte(b.String()) }

// server is a running `dragoman serve` process.
type server struct {
	t       testing.TB
	dataDir string
	https   string
	http    string
	metrics string   // --metrics-addr, a free port of its own
	wrap    []string // a command that runs dragoman serve (e.g. in a namespace), if any
	args    []string
	env     []string
	cmd     *exec.Cmd
	logs    *syncBuffer
	client  *http.Client
	keys    map[string]string // API keys by account (keyFor)
}

func startServer(t testing.TB, extraArgs []string, env ...string) *server {
	t.Helper()
	s := newServer(t, extraArgs, env...)
	s.start()
	t.Cleanup(s.stop)
	return s
}

// newServer is a server ready to start, for tests that change how.
func newServer(t testing.TB, extraArgs []string, env ...string) *server {
	t.Helper()
	s := &server{t: t, dataDir: t.TempDir(), https: freePort(t), http: freePort(t), metrics: freePort(t)}
	bin := binaries(t)
	s.args = append([]string{"serve", "--data-dir", s.dataDir, "--plugin-dir", filepath.Join(bin, "plugins"),
		"--https-addr", s.https, "--http-addr", s.http, "--metrics-addr", s.metrics,
		// Tests run servers side by side: the embedded NATS takes any free
		// port unless a test names one (the last flag wins).
		"--nats-listen", "127.0.0.1:0"}, extraArgs...)
	// Conversions get the tests' generous timeout, not the product's (a
	// busy machine must not fail them); a test's own env overrides it.
	s.env = append(append(os.Environ(), "DRAGOMAN_LIBREOFFICE_TIMEOUT="+pooltest.TestTimeout), env...)
	s.client = &http.Client{
		Timeout:   60 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}},
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
	return s
}

// start runs the server until it is healthy. freePort releases its port
// before the server binds it, so on a busy machine another process (an
// outgoing connection takes ports from the same range) may take it first:
// a server that exits with "address already in use" gets fresh ports and
// starts again.
func (s *server) start() {
	s.t.Helper()
	for attempt := 1; ; attempt++ {
		if s.startOnce() {
			return
		}
		if attempt == 5 || !strings.Contains(s.logs.String(), "address already in use") {
			s.t.Fatalf("server did not become healthy; logs:\n%s", s.logs)
		}
		s.t.Logf("a port was taken before the server bound it; new ports:\n%s", s.logs)
		s.https, s.http, s.metrics = freePort(s.t), freePort(s.t), freePort(s.t)
		for i := 0; i+1 < len(s.args); i++ {
			switch s.args[i] {
			case "--https-addr":
				s.args[i+1] = s.https
			case "--http-addr":
				s.args[i+1] = s.http
			case "--metrics-addr":
				s.args[i+1] = s.metrics
			}
		}
	}
}

// startOnce starts the process and reports whether it became healthy.
func (s *server) startOnce() bool {
	s.logs = &syncBuffer{}
	name, args := filepath.Join(binaries(s.t), "dragoman"), s.args
	if len(s.wrap) > 0 {
		name, args = s.wrap[0], append(append(slices.Clone(s.wrap[1:]), name), args...)
	}
	s.cmd = exec.Command(name, args...)
	s.cmd.Env = s.env
	s.cmd.Stdout, s.cmd.Stderr = s.logs, s.logs
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		resp, err := s.client.Get(s.url("/v1/health"))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return true
			}
		}
		if strings.Contains(s.logs.String(), "address already in use") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	s.kill()
	return false
}

// kill sends SIGKILL to the server and its plugins (the process group).
func (s *server) kill() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	_ = s.cmd.Wait()
	s.cmd = nil
}

func (s *server) stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		s.kill()
	}
	s.cmd = nil
	if s.t.Failed() {
		s.t.Logf("server logs:\n%s", s.logs)
	}
}

func (s *server) url(path string) string { return "https://" + s.https + path }

// admin runs the admin CLI against the server's data dir and decodes its JSON.
func (s *server) admin(args ...string) map[string]any {
	s.t.Helper()
	cmd := exec.Command(filepath.Join(binaries(s.t), "dragoman"), append(append([]string{"admin"}, args...), "--data-dir", s.dataDir)...)
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		s.t.Fatalf("admin %v: %v\n%s", args, err, stderr)
	}
	var m map[string]any
	if err := json.Unmarshal(out, &m); err != nil {
		s.t.Fatalf("admin %v printed %q: %v", args, out, err)
	}
	return m
}

// account makes an account on plan and returns (account id, api key, key id).
func (s *server) account(plan string) (string, string, string) {
	a := s.admin("account", "create", "--plan", plan, "--name", "test")
	id := a["account_id"].(string)
	k := s.admin("key", "create", "--account", id)
	return id, k["api_key"].(string), k["key_id"].(string)
}

type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("status %d: body is not JSON: %q", r.status, r.body)
	}
	return m
}

func (s *server) do(method, path, key string, body io.Reader, contentType string) response {
	s.t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, s.url(path), body)
	if err != nil {
		s.t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return response{resp.StatusCode, resp.Header, b}
}

// upload posts a multipart form with the file at path (or content) and fields.
func (s *server) upload(key, name string, content io.Reader, fields map[string]string) response {
	s.t.Helper()
	return s.uploadTo("/v1/translate", key, name, content, fields)
}

// uploadTo posts the multipart form of upload to path.
func (s *server) uploadTo(path, key, name string, content io.Reader, fields map[string]string) response {
	s.t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		for k, v := range fields {
			_ = mw.WriteField(k, v)
		}
		if content != nil {
			fw, err := mw.CreateFormFile("file", name)
			if err != nil {
				pw.CloseWithError(err)
				return
			}
			if _, err := io.Copy(fw, content); err != nil {
				pw.CloseWithError(err)
				return
			}
		}
		pw.CloseWithError(mw.Close())
	}()
	return s.do("POST", path, key, pr, mw.FormDataContentType())
}

func (s *server) uploadFile(key, path string, fields map[string]string) response {
	s.t.Helper()
	return s.uploadFileTo("/v1/translate", key, path, fields)
}

func (s *server) uploadFileTo(to, key, path string, fields map[string]string) response {
	s.t.Helper()
	f, err := os.Open(path)
	if err != nil {
		s.t.Fatal(err)
	}
	defer f.Close()
	return s.uploadTo(to, key, filepath.Base(path), f, fields)
}

// getPatiently GETs path, waiting out 429s as their Retry-After asks (the
// per-minute limit counts a test's fast polling too).
func (s *server) getPatiently(path, key string) response {
	s.t.Helper()
	for i := 0; ; i++ {
		r := s.do("GET", path, key, nil, "")
		if r.status != http.StatusTooManyRequests || i == 5 {
			return r
		}
		wait, _ := strconv.Atoi(r.header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
	}
}

// waitJob polls a job until it is terminal: every 200 ms at first, then
// less often, up to every 2 s, so that a long job's polls stay within the
// pro plan's 60 requests a minute. Polling at 200 ms throughout spent the
// minute's requests in 12 s, and the 429's Retry-After (up to 48 s) then
// hid the completed job: the 30–55 s "stalls" of issue 13, which the job's
// own events never showed.
func (s *server) waitJob(key, id string, timeout time.Duration) map[string]any {
	s.t.Helper()
	deadline := time.Now().Add(timeout)
	pause := 200 * time.Millisecond
	for {
		r := s.do("GET", "/v1/jobs/"+id, key, nil, "")
		if r.status == http.StatusTooManyRequests { // a long poll on a small plan: back off as told
			wait, _ := strconv.Atoi(r.header.Get("Retry-After"))
			time.Sleep(time.Duration(max(wait, 1)) * time.Second)
			continue
		}
		if r.status != 200 {
			s.t.Fatalf("poll job %s: %d %s", id, r.status, r.body)
		}
		j := r.json(s.t)
		if st := j["status"]; st == "completed" || st == "failed" {
			return j
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("job %s still %v after %s", id, j["status"], timeout)
		}
		time.Sleep(pause)
		pause = min(pause*5/4, 2*time.Second)
	}
}

func contains(s []byte, sub string) bool { return strings.Contains(string(s), sub) }

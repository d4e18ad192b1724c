package corpusrender

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/plugins/libreoffice/pool/pooltest"
)

// binDir holds dragoman and plugins/: DRAGOMAN_BIN, or the repository's bin.
func binDir(t *testing.T) string {
	t.Helper()
	d := os.Getenv("DRAGOMAN_BIN")
	if d == "" {
		d = "../../bin"
	}
	d, err := filepath.Abs(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(d, "dragoman")); err != nil {
		t.Fatalf("no dragoman binary in %s (run make build, or set DRAGOMAN_BIN): %v", d, err)
	}
	return d
}

// api is a running `dragoman serve` and an enterprise
// key: the documents go through the REST API as a customer's would.
type api struct {
	url, ca, key string
}

// startAPI starts the real server on free ports with its own data dir and
// engines, and makes an enterprise account with a key; the server stops
// with the test.
func startAPI(t *testing.T, bin, engines string) *api {
	t.Helper()
	data := t.TempDir()
	cmd := exec.Command(filepath.Join(bin, "dragoman"), "serve", "--data-dir", data, "--plugin-dir", filepath.Join(bin, "plugins"),
		"--https-addr", "127.0.0.1:0", "--http-addr", "", "--metrics-addr", "", "--nats-listen", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "DRAGOMAN_ENGINES="+engines, "TMPDIR="+t.TempDir(),
		// The tests' generous conversion timeout, not the product's.
		"DRAGOMAN_LIBREOFFICE_TIMEOUT="+pooltest.TestTimeout)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
		}
	})
	// The banner names the bound address: "serving https on HOST:PORT".
	addr := make(chan string, 1)
	var log syncLog
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			line := sc.Text()
			log.add(line)
			if _, rest, ok := strings.Cut(line, "serving https on "); ok {
				select {
				case addr <- strings.Fields(rest)[0]:
				default:
				}
			}
		}
	}()
	var a api
	select {
	case got := <-addr:
		a.url, a.ca = "https://"+got, filepath.Join(data, "tls", "cert.pem")
	case <-time.After(5 * time.Minute):
		t.Fatalf("dragoman serve did not start in 5 minutes:\n%s", log.String())
	}
	admin := func(args ...string) map[string]any {
		out, err := exec.Command(filepath.Join(bin, "dragoman"), append(append([]string{"admin"}, args...), "--data-dir", data)...).Output()
		var m map[string]any
		if err == nil {
			err = json.Unmarshal(out, &m)
		}
		if err != nil {
			t.Fatalf("dragoman admin %v: %v: %s", args, err, out)
		}
		return m
	}
	id, _ := admin("account", "create", "--plan", "enterprise", "--name", "corpus")["account_id"].(string)
	admin("account", "set-plan", "--account", id, "--plan", "enterprise", "--requests-per-minute", "100000")
	a.key, _ = admin("key", "create", "--account", id)["api_key"].(string)
	if a.key == "" {
		t.Fatal("no API key")
	}
	return &a
}

type syncLog struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *syncLog) add(s string) {
	l.mu.Lock()
	l.b.WriteString(s + "\n")
	l.mu.Unlock()
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// translate runs `dragoman translate` against the server (the REST API)
// on files, writing NAME.<code>.docx into dir.
func translate(t *testing.T, bin string, srv *api, files []string, from, to, dir string) {
	t.Helper()
	if len(files) == 0 {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs := make([]string, len(files))
	for i, f := range files {
		abs[i], _ = filepath.Abs(f)
	}
	args := append([]string{"translate", "--server", srv.url, "--ca", srv.ca, "--key", srv.key,
		"--from", from, "--to", to, "--out", dir, "--json"}, abs...)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "dragoman"), args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dragoman translate --to %s: %v\n%s\n%s", to, err, out, tail(stderr.String(), 3000))
	}
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

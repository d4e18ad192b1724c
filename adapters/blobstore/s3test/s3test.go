// Package s3test starts a throwaway S3-compatible server (versitygw, posix
// backend in a temporary folder) for tests of the S3 blob store and of the
// scale-out deployment.
//
// The versitygw binary is taken from DRAGOMAN_VERSITYGW, PATH or
// $(go env GOPATH)/bin. If it is missing, tests fail when CI is set and
// otherwise `go install` it once (about 80 s cold).
package s3test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Module is the go install target of the server the tests use.
const Module = "github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// Server is a running versitygw.
type Server struct {
	Endpoint  string // http://127.0.0.1:PORT
	AccessKey string
	SecretKey string
	Dir       string // the posix backend's folder: one subfolder per bucket

	bin, addr string
	kill      func()
}

// URL is the --blob-url of bucket on this server.
func (s *Server) URL(bucket string) string {
	return "s3://" + bucket + "?endpoint=" + s.Endpoint + "&region=us-east-1&path_style=true"
}

// Start runs a server for the test and stops it when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	s, stop, err := Run(bin, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return s
}

// Run starts the server binary bin on a free loopback port with its data in
// dir; stop kills it. For servers shared by a whole test binary (TestMain).
func Run(bin, dir string) (s *Server, stop func(), err error) {
	s = &Server{AccessKey: "dragoman-test", SecretKey: "dragoman-test-secret", Dir: dir, bin: bin}
	for try := 0; ; try++ {
		addr, err := freeAddr()
		if err != nil {
			return nil, nil, err
		}
		out, ok, err := s.run(addr)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			s.Endpoint = "http://" + addr
			return s, s.Stop, nil
		}
		// The port may have been taken between choosing and binding it.
		if try == 2 {
			return nil, nil, fmt.Errorf("s3test: versitygw did not start on %s:\n%s", addr, out)
		}
	}
}

// run starts the server on addr and reports whether it answers.
func (s *Server) run(addr string) (string, bool, error) {
	cmd := exec.Command(s.bin, "--access", s.AccessKey, "--secret", s.SecretKey, "--port", addr, "--quiet", "posix", s.Dir)
	cmd.Env = withoutVGW(os.Environ())
	out := &strings.Builder{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return "", false, fmt.Errorf("s3test: start versitygw: %w", err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	kill := func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	}
	if !waitReady(addr, exited) {
		kill()
		return out.String(), false, nil
	}
	s.addr, s.kill = addr, kill
	return "", true, nil
}

// Stop kills the server (an outage: connections are refused); the
// objects stay in Dir.
func (s *Server) Stop() {
	if s.kill != nil {
		s.kill()
		s.kill = nil
	}
}

// Restart starts a stopped server again on its address and folder.
func (s *Server) Restart() error {
	out, ok, err := s.run(s.addr)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("s3test: versitygw did not start again on %s:\n%s", s.addr, out)
	}
	return nil
}

// waitReady polls until the server answers HTTP (any status) or exits.
func waitReady(addr string, exited chan struct{}) bool {
	client := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if resp, err := client.Get("http://" + addr + "/"); err == nil {
			resp.Body.Close()
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// withoutVGW drops VGW_* variables, which would reconfigure the server.
func withoutVGW(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "VGW_") {
			out = append(out, e)
		}
	}
	return out
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// Binary finds versitygw, installing it once outside CI.
func Binary(t testing.TB) string {
	t.Helper()
	p, err := BinaryPath()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BinaryPath is Binary for callers without a testing.TB.
func BinaryPath() (string, error) {
	binOnce.Do(func() { binPath, binErr = FindOrInstall("versitygw", Module) })
	return binPath, binErr
}

// FindOrInstall finds the binary of a Go-built test server (versitygw
// here; nats-server for the scale-out test): DRAGOMAN_<NAME> (dashes as
// underscores), PATH, then $(go env GOPATH)/bin. A missing one is
// installed with `go install module`, except in CI, where the run script
// must have installed it and the test fails.
func FindOrInstall(name, module string) (string, error) {
	if p := os.Getenv("DRAGOMAN_" + strings.ToUpper(strings.ReplaceAll(name, "-", "_"))); p != "" {
		return p, nil
	}
	gobin := goBin()
	look := func() string {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		if p := filepath.Join(gobin, name); isFile(p) {
			return p
		}
		return ""
	}
	if p := look(); p != "" {
		return p, nil
	}
	if os.Getenv("CI") != "" {
		return "", fmt.Errorf("%s not found on PATH or in %s: install it with `go install %s`", name, gobin, module)
	}
	if out, err := exec.Command("go", "install", module).CombinedOutput(); err != nil {
		return "", fmt.Errorf("%s not found and `go install %s` failed: %v\n%s", name, module, err, out)
	}
	if p := look(); p != "" {
		return p, nil
	}
	return "", fmt.Errorf("`go install %s` did not put %s in %s", module, name, gobin)
}

func goBin() string {
	if out, err := exec.Command("go", "env", "GOBIN").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
		return strings.TrimSpace(string(out))
	}
	out, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		return ""
	}
	return filepath.Join(strings.SplitN(strings.TrimSpace(string(out)), string(os.PathListSeparator), 2)[0], "bin")
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}

// freeAddr is a free loopback address on a stable port (Restart takes it
// again after an outage).
func freeAddr() (string, error) {
	port, err := StablePort()
	if err != nil {
		return "", err
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), nil
}

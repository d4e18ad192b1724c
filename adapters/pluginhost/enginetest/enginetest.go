// Package enginetest runs an engine plugin's binary through the real
// plugin host against a stand-in vendor server, and checks the behaviour
// every HTTP engine shares: codes kept, limits respected, 429 with and
// without Retry-After, 5xx, timeouts, malformed bodies, exhausted retries
// naming the engine, refused keys and missing settings.
//
// It is the host's test kit, imported by the engine plugins' _test files:
// it lives beside the plugin host it drives, so that nothing a plugin is
// built from depends on the host's core or adapters.
package enginetest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/adapters/pluginhost"
	"github.com/dragoman-translate/dragoman/core/ports"
	"github.com/dragoman-translate/dragoman/plugins/sdk"
)

// Build compiles the main package in pkgDir as dragoman-provider-<name>
// into a fresh directory, for TestMain.
func Build(name, pkgDir string) (dir string, err error) {
	dir, err = os.MkdirTemp("", "engine-"+name+"-")
	if err != nil {
		return "", err
	}
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, sdk.ProviderPrefix+name), pkgDir)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("building the %s plugin: %w", name, err)
	}
	return dir, nil
}

// Main is a TestMain body: it builds the plugin, runs the tests, cleans up.
func Main(m *testing.M, name string, dir *string) {
	d, err := Build(name, ".")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*dir = d
	code := m.Run()
	os.RemoveAll(d)
	os.Exit(code)
}

// Start runs the plugin through the plugin host with env set (the plugin
// inherits the test's environment). The error is the host's, e.g. a
// failed capability handshake.
func Start(t *testing.T, dir, name string, env map[string]string) (ports.Engine, error) {
	t.Helper()
	for k, v := range env {
		t.Setenv(k, v)
	}
	h, err := pluginhost.New(dir, []string{name}, nil, pluginhost.WithHealthInterval(0))
	if err != nil {
		return ports.Engine{}, err
	}
	t.Cleanup(func() { h.Close() })
	engines, err := h.Engines(context.Background())
	if err != nil {
		return ports.Engine{}, err
	}
	return engines[0], nil
}

// Fault is a scripted answer the stand-in server gives instead of the
// vendor behaviour.
type Fault struct {
	Status int
	Header map[string]string
	Body   string
	Delay  time.Duration // before answering (to provoke client timeouts)
}

// Vendor is a stand-in server: scripted faults first, then Handler, the
// vendor's documented behaviour.
type Vendor struct {
	URL     string
	handler http.Handler

	mu       sync.Mutex
	faults   []Fault
	always   *Fault
	requests int
}

// NewVendor starts a loopback server for handler.
func NewVendor(t *testing.T, handler http.Handler) *Vendor {
	v := &Vendor{handler: handler}
	srv := httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(srv.Close)
	v.URL = srv.URL
	return v
}

// Push queues faults for the next requests.
func (v *Vendor) Push(f ...Fault) { v.mu.Lock(); v.faults = append(v.faults, f...); v.mu.Unlock() }

// Always answers every request with f.
func (v *Vendor) Always(f Fault) { v.mu.Lock(); v.always = &f; v.mu.Unlock() }

// ResetRequests zeroes the count, e.g. after a plugin's start-up queries.
func (v *Vendor) ResetRequests() { v.mu.Lock(); v.requests = 0; v.mu.Unlock() }

// Requests counts the requests received.
func (v *Vendor) Requests() int { v.mu.Lock(); defer v.mu.Unlock(); return v.requests }

func (v *Vendor) serve(w http.ResponseWriter, r *http.Request) {
	v.mu.Lock()
	v.requests++
	var f *Fault
	if v.always != nil {
		f = v.always
	} else if len(v.faults) > 0 {
		f = &v.faults[0]
		v.faults = v.faults[1:]
	}
	v.mu.Unlock()
	if f == nil {
		v.handler.ServeHTTP(w, r)
		return
	}
	if f.Delay > 0 {
		select {
		case <-time.After(f.Delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, val := range f.Header {
		w.Header().Set(k, val)
	}
	if f.Status == 0 {
		f.Status = http.StatusOK
	}
	w.WriteHeader(f.Status)
	fmt.Fprint(w, f.Body)
}

// Upper is the stand-in translation: text outside markup upper-cased
// (entities and tags kept), so tests can tell what was translated.
func Upper(s string) string {
	var b strings.Builder
	inTag, inEnt := false, false
	for _, r := range s {
		switch {
		case inTag:
			inTag = r != '>'
		case inEnt:
			inEnt = r != ';'
		case r == '<':
			inTag = true
		case r == '&':
			inEnt = true
		default:
			b.WriteString(strings.ToUpper(string(r)))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

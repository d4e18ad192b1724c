package eventbus

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/core/ports"
)

// The crash test re-executes the test binary as a helper process, which
// TestMain dispatches to crashHelper when crashRoleEnv is set.
const (
	crashRoleEnv  = "DRAGOMAN_EVENTBUS_CRASH_ROLE"
	crashDirEnv   = "DRAGOMAN_EVENTBUS_CRASH_DIR"
	crashEvents   = 200
	crashHandled  = 5 // events the helper finishes before it blocks
	crashAckWait  = time.Second
	crashTopic    = ports.TopicAccepted
	crashHandler  = "convert"
	crashLogName  = "helper.log"
	blockedPrefix = "blocked "
)

// crashHelper publishes crashEvents events, handles crashHandled of them
// and then blocks inside the next handler until it is killed. It logs
// what it did to dir/helper.log, one line per step, written before the
// step is acknowledged.
func crashHelper(role string) int {
	if role != "publish-and-hang" {
		fmt.Fprintln(os.Stderr, "unknown role", role)
		return 2
	}
	dir := os.Getenv(crashDirEnv)
	logf, err := os.OpenFile(filepath.Join(dir, crashLogName), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var mu sync.Mutex
	logLine := func(s string) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintln(logf, s)
	}
	b, err := NewEmbedded(dir, quiet, WithAckWait(crashAckWait))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	handled := 0
	b.Handle(crashHandler, crashTopic, func(ctx context.Context, e ports.JobEvent) error {
		if handled == crashHandled {
			logLine(blockedPrefix + e.JobID)
			<-make(chan struct{}) // mid-handling when the parent kills us
		}
		handled++
		logLine("handled " + e.JobID)
		return nil
	})
	if err := b.Start(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for i := range crashEvents {
		id := fmt.Sprintf("job-%03d", i)
		if err := b.Publish(context.Background(), crashTopic, ports.JobEvent{JobID: id, At: time.Now()}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		logLine("published " + id)
	}
	logLine("published-all")
	<-make(chan struct{})
	return 0
}

// TestNoEventLostOnKill: a process publishes, handles some events and is
// SIGKILLed inside a handler; a second process on the same directory
// must receive every event the first did not finish.
func TestNoEventLostOnKill(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), crashRoleEnv+"=publish-and-hang", crashDirEnv+"="+dir)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var lines []string
	deadline := time.Now().Add(60 * time.Second)
	for {
		lines = readLines(t, filepath.Join(dir, crashLogName))
		if contains(lines, "published-all") && blockedID(lines) != "" {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("helper exited early: %v", err)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("helper did not reach the blocked handler; log:\n%s", strings.Join(lines, "\n"))
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited

	published, done := map[string]bool{}, map[string]bool{}
	for _, l := range readLines(t, filepath.Join(dir, crashLogName)) {
		if id, ok := strings.CutPrefix(l, "published "); ok {
			published[id] = true
		}
		if id, ok := strings.CutPrefix(l, "handled "); ok {
			done[id] = true
		}
	}
	blocked := blockedID(lines)
	if len(published) != crashEvents || len(done) != crashHandled {
		t.Fatalf("helper published %d and handled %d, want %d and %d", len(published), len(done), crashEvents, crashHandled)
	}

	// Second life on the same directory.
	b := newTestBus(t, dir, WithAckWait(crashAckWait))
	var mu sync.Mutex
	got := map[string]int{}
	b.Handle(crashHandler, crashTopic, func(_ context.Context, e ports.JobEvent) error {
		mu.Lock()
		got[e.JobID]++
		mu.Unlock()
		return nil
	})
	start(t, b)
	missing := func() []string {
		mu.Lock()
		defer mu.Unlock()
		var m []string
		for id := range published {
			if !done[id] && got[id] == 0 {
				m = append(m, id)
			}
		}
		return m
	}
	deadline = time.Now().Add(30 * time.Second)
	for len(missing()) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("lost after kill -9: %v", missing())
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if got[blocked] == 0 {
		t.Fatalf("the event being handled at the kill (%s) was not redelivered", blocked)
	}
	dups := 0
	for id, n := range got {
		if n > 1 || done[id] {
			dups++
		}
	}
	t.Logf("after kill -9: %d unfinished events all redelivered (in flight: %s); %d redelivered more than needed (at-least-once)",
		crashEvents-crashHandled, blocked, dups)
}

func readLines(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func contains(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func blockedID(lines []string) string {
	for _, l := range lines {
		if id, ok := strings.CutPrefix(l, blockedPrefix); ok {
			return id
		}
	}
	return ""
}

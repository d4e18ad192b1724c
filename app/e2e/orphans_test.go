package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dragoman-translate/dragoman/app/internal/instance"
)

// tagged lists the processes carrying a server's instance tag for dataDir:
// its plugins and whatever they started.
func tagged(t *testing.T, dataDir string) []string {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if _, dir, ok := instance.SplitTag(instance.TagOf(pid)); ok && dir == abs && instance.ProcessTag(pid) != "" {
			comm, _ := os.ReadFile("/proc/" + e.Name() + "/comm")
			out = append(out, e.Name()+" "+strings.TrimSpace(string(comm)))
		}
	}
	return out
}

func waitTagged(t *testing.T, dataDir string, done func(n int) bool, within time.Duration) []string {
	deadline := time.Now().Add(within)
	for {
		p := tagged(t, dataDir)
		if done(len(p)) || time.Now().After(deadline) {
			return p
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestKilledServerLeavesNoProcesses: 10 rounds of start, submit jobs that
// start the provider and the LibreOffice converter, SIGKILL to the server
// alone (not its process group); afterwards none of its processes remain.
// Then a stray tagged for the data dir by a server that is gone is killed
// by the next start.
func TestKilledServerLeavesNoProcesses(t *testing.T) {
	s := startServer(t, nil)
	_, key, _ := s.account("pro")
	rtf := filepath.Join(t.TempDir(), "a.rtf")
	if err := os.WriteFile(rtf, []byte(`{\rtf1\ansi Hello world. This is a test.\par}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 10; round++ {
		if round > 1 {
			s.start()
		}
		for _, f := range []string{englishDocx, rtf} {
			if r := s.uploadFile(key, f, map[string]string{"target_lang": "Spanish", "source_lang": "English"}); r.status != 202 {
				t.Fatalf("round %d: upload %s: %d %s", round, f, r.status, r.body)
			}
		}
		// The provider, the converter, soffice.bin and its helper.
		before := waitTagged(t, s.dataDir, func(n int) bool { return n >= 4 }, 60*time.Second)
		if len(before) < 2 {
			t.Fatalf("round %d: only %v started", round, before)
		}
		syscall.Kill(s.cmd.Process.Pid, syscall.SIGKILL)
		s.cmd.Wait()
		s.cmd = nil
		if left := waitTagged(t, s.dataDir, func(n int) bool { return n == 0 }, 10*time.Second); len(left) > 0 {
			t.Fatalf("round %d: %d of %d processes outlived the server: %v", round, len(left), len(before), left)
		}
		t.Logf("round %d: %d processes before the kill, 0 after", round, len(before))
	}

	// A stray from a server that is gone: owner "1:1" is no live process.
	abs, _ := filepath.Abs(s.dataDir)
	stray := exec.Command("sleep", "600")
	stray.Env = append(os.Environ(), instance.Env+"=1:1:"+abs)
	if err := stray.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { stray.Wait(); close(exited) }()
	s.start()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		stray.Process.Kill()
		t.Fatal("the start-up sweep left a stray of an earlier server running")
	}
}

package pluginhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// TestSocketsOfAKilledPluginAreRemoved: go-plugin leaves the unix socket of
// a SIGKILLed plugin behind; the host's own socket directory goes on Close.
func TestSocketsOfAKilledPluginAreRemoved(t *testing.T) {
	h, err := New(pluginDir, []string{"crashy"}, nil, WithHealthInterval(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	dir := h.sockets
	if filepath.Dir(dir) != filepath.Clean(os.TempDir()) {
		t.Fatalf("socket dir %s is not in TMPDIR", dir)
	}
	if err := syscall.Kill(h.engines[0].pid(), syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the health check restarts it
	h.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("socket directory %s still exists after Close (%v)", dir, err)
	}
}

// TestStaleSocketDirsAreSwept: directories of hosts that are gone (here a
// finished process) are removed at start; those of live hosts are kept.
func TestStaleSocketDirsAreSwept(t *testing.T) {
	tmp := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(tmp, socketPrefix+strconv.Itoa(cmd.Process.Pid)+"-x")
	live := filepath.Join(tmp, socketPrefix+strconv.Itoa(os.Getppid())+"-y")
	other := filepath.Join(tmp, "unrelated")
	for _, d := range []string{dead, live, other} {
		if err := os.MkdirAll(filepath.Join(d, "sock"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepSocketDirs(tmp)
	if _, err := os.Stat(dead); !os.IsNotExist(err) {
		t.Errorf("the dead host's directory survived: %v", err)
	}
	for _, d := range []string{live, other} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

package pool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestSweepRemovesOnlyDeadOwnersFiles(t *testing.T) {
	tmp := t.TempDir()
	mine, err := newWorkDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := func(owner string) string {
		dir, err := os.MkdirTemp(tmp, workPrefix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	gone := stale(strconv.Itoa(dead.Process.Pid) + " 1")
	reused := stale(strconv.Itoa(os.Getpid()) + " 1") // our pid, another start time
	// A dead instance's socket in /tmp, as soffice leaves it.
	sock := pipeSocket("dragoman-sweeptest-" + randomHex(4))
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(sock)
	inst := filepath.Join(gone, "instance-1")
	os.Mkdir(inst, 0o700)
	os.WriteFile(filepath.Join(inst, socketsFile), []byte(sock+"\n/etc/passwd"), 0o600)
	young, _ := os.MkdirTemp(tmp, workPrefix) // owner file not written yet

	removed := sweepStale(tmp)
	if len(removed) != 2 {
		t.Errorf("removed %v, want %s and %s", removed, gone, reused)
	}
	for _, d := range []string{gone, reused, sock} {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s survived the sweep", d)
		}
	}
	for _, d := range []string{mine, young, "/etc/passwd"} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s swept: %v", d, err)
		}
	}
}

// A SIGKILLed plugin whose parent died too can stay a zombie for as long
// as init does not reap it: its files must go all the same.
func TestZombieOwnerIsDead(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	pid := cmd.Process.Pid
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if strings.Contains(string(stat), ") Z ") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no zombie: %q", stat)
		}
	}
	if id := processID(pid); id != "" {
		t.Fatalf("zombie %d counts as running (%q)", pid, id)
	}
	if processID(os.Getpid()) == "" {
		t.Fatal("this process counts as dead")
	}
}

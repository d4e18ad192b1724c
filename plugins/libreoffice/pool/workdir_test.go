package pool

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
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

package pool

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// stale makes a work directory of instance under tmp whose owner file
// says owner and is locked by nobody.
func stale(t *testing.T, tmp, instance, owner string) string {
	t.Helper()
	dir, err := os.MkdirTemp(tmp, workPrefixFor(instance))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(owner), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lockedBy holds dir's owner file locked from another process, as a
// plugin of another server (maybe in another pid namespace) does.
func lockedBy(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	// -o: the lock is flock's own, not its child's.
	cmd := exec.Command("flock", "-o", filepath.Join(dir, ownerFile), "sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("flock (util-linux): %v", err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
	for deadline := time.Now().Add(10 * time.Second); !ownerAlive(dir); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("flock never took the lock")
		}
	}
	return cmd
}

// issue 26: the sweep removes only its own server's directories whose
// owner is gone. Liveness is the owner file's lock, so a live owner whose
// pid means nothing here (another pid namespace, a reused pid) keeps its
// files, and a dead one loses them whatever its pid says.
func TestSweepRemovesOnlyItsServersDeadDirectories(t *testing.T) {
	tmp := t.TempDir()
	mine, err := newWorkDir(tmp, "srv1")
	if err != nil {
		t.Fatal(err)
	}
	defer mine.remove()
	gone := stale(t, tmp, "srv1", "999999999") // no such pid, no lock
	ourPid := stale(t, tmp, "srv1", "1")       // a live pid (init), no lock
	foreignPid := stale(t, tmp, "srv1", "4194304")
	lockedBy(t, foreignPid) // a pid of another namespace, its lock held
	other := stale(t, tmp, "srv2", "999999999")
	young, _ := os.MkdirTemp(tmp, workPrefixFor("srv1")) // owner file not written yet
	// A dead instance's socket in /tmp, as soffice leaves it.
	sock := pipeSocket("dragoman-sweeptest-" + randomHex(4))
	if err := os.WriteFile(sock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(sock)
	inst := filepath.Join(gone, "instance-1")
	os.Mkdir(inst, 0o700)
	os.WriteFile(filepath.Join(inst, socketsFile), []byte(sock+"\n/etc/passwd"), 0o600)

	removed := sweepStale(tmp, "srv1")
	if len(removed) != 2 {
		t.Errorf("removed %v, want %s and %s", removed, gone, ourPid)
	}
	for _, d := range []string{gone, ourPid, sock} {
		if _, err := os.Stat(d); err == nil {
			t.Errorf("%s survived the sweep", d)
		}
	}
	for _, d := range []string{mine.Path(), foreignPid, other, young, "/etc/passwd"} {
		if _, err := os.Stat(d); err != nil {
			t.Errorf("%s swept: %v", d, err)
		}
	}
}

// A SIGKILLed owner's lock goes with it, even while it is a zombie
// nobody reaps: its files are swept at the next start.
func TestKilledOwnersLockIsReleased(t *testing.T) {
	tmp := t.TempDir()
	dir := stale(t, tmp, "srv1", "")
	cmd := lockedBy(t, dir)
	if got := sweepStale(tmp, "srv1"); len(got) != 0 {
		t.Fatalf("swept %v while its owner lives", got)
	}
	cmd.Process.Kill() // not waited for: a zombie for now
	for deadline := time.Now().Add(10 * time.Second); ownerAlive(dir); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the killed owner's lock is still held")
		}
	}
	if got := sweepStale(tmp, "srv1"); len(got) != 1 {
		t.Fatalf("swept %v, want the killed owner's directory", got)
	}
}

// issue 25: a work directory that vanished is made again, locked, at
// the same path.
func TestWorkDirIsMadeAgain(t *testing.T) {
	tmp := t.TempDir()
	w, err := newWorkDir(tmp, "")
	if err != nil {
		t.Fatal(err)
	}
	defer w.remove()
	if again, err := w.ensure(); again || err != nil {
		t.Fatalf("ensure on a present directory: %v, %v", again, err)
	}
	path := w.Path()
	os.RemoveAll(path)
	if again, err := w.ensure(); !again || err != nil {
		t.Fatalf("ensure after removal: %v, %v", again, err)
	}
	if w.Path() != path || !ownerAlive(path) {
		t.Fatalf("made again at %s (was %s), locked: %v", w.Path(), path, ownerAlive(path))
	}
	if err := w.writable(); err != nil {
		t.Fatal(err)
	}
}

// issue 25: LibreOffice's work directory vanished during a run, and every
// PDF and preview failed while readiness said "ok". The pool makes it
// again and replaces the instances that lived in it; Health fails, in
// words, while it cannot be made.
func TestVanishedWorkDirIsMadeAgainAndReported(t *testing.T) {
	p := newTestPool(t, Config{Size: 1})
	footnote := filepath.Join(corpus, "rtf/pandoc-footnote.rtf")
	if _, err := convertFile(t, p, context.Background(), RTF, footnote); err != nil {
		t.Fatal(err)
	}
	work := p.TempDir()
	os.RemoveAll(work)
	if err := p.Health(); err != nil {
		t.Fatalf("health after the directory vanished: %v", err)
	}
	b, err := convertFile(t, p, context.Background(), RTF, footnote)
	if err != nil {
		t.Fatalf("converting after the directory vanished: %+v", err)
	}
	assertDocx(t, "after", b)

	os.RemoveAll(work)
	if err := os.WriteFile(work, nil, 0o600); err != nil { // in the way: nothing can be made there
		t.Fatal(err)
	}
	err = p.Health()
	t.Logf("health: %v", err)
	if err == nil || !strings.Contains(err.Error(), "work directory") {
		t.Fatalf("health with the directory unmakeable: %v, want it named", err)
	}
	if _, err := convertFile(t, p, context.Background(), RTF, footnote); reasonOf(err) != Unavailable {
		t.Fatalf("converting with the directory unmakeable: %+v, want unavailable", err)
	}
	os.Remove(work)
	if err := p.Health(); err != nil {
		t.Fatalf("health once it can be made again: %v", err)
	}
}

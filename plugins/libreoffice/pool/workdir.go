package pool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Every file the pool makes lives under one work directory per plugin
// process, dragoman-lo-<server>-* in the temp dir, where <server> names
// the server instance the plugin works for (Config.Instance). Its owner
// file is locked (flock) for the pool's life: the lock, not a pid, says
// the owner lives, so a server in another pid namespace, or a pid reused,
// never makes a live directory look dead (issue 26: two servers on one
// machine broke each other's conversions). A SIGKILLed plugin cannot
// remove its directory, so each start sweeps those of its own server
// whose lock nobody holds, with the pipe sockets their instances left in
// /tmp; other servers' directories are theirs to sweep.
const (
	workPrefix  = "dragoman-lo-"
	ownerFile   = "owner"   // "pid" of the owning process, locked while it lives
	socketsFile = "sockets" // in an instance directory: its socket paths, one a line
)

// workDir is the pool's work directory. It is made again when something
// removes it (a /tmp cleaner; issue 25: every PDF and preview failed
// while readiness said "ok").
type workDir struct {
	parent, prefix string

	mu   sync.Mutex
	path string
	lock *os.File // the owner file, flock'ed
}

// workPrefixFor is the name prefix of a server instance's work
// directories: a digest of its name (the server's data directory), so the
// name says nothing of the path.
func workPrefixFor(instance string) string {
	if instance == "" {
		return workPrefix + "default-"
	}
	sum := sha256.Sum256([]byte(instance))
	return workPrefix + hex.EncodeToString(sum[:6]) + "-"
}

// newWorkDir creates this process's work directory under parent.
func newWorkDir(parent, instance string) (*workDir, error) {
	w := &workDir{parent: parent, prefix: workPrefixFor(instance)}
	dir, err := os.MkdirTemp(parent, w.prefix)
	if err != nil {
		return nil, err
	}
	if err := w.own(dir); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return w, nil
}

// own writes and locks the owner file of dir and makes dir the path.
func (w *workDir) own(dir string) error {
	f, err := os.OpenFile(filepath.Join(dir, ownerFile), os.O_CREATE|os.O_RDWR|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	fmt.Fprintf(f, "%d\n", os.Getpid())
	if w.lock != nil {
		w.lock.Close()
	}
	w.path, w.lock = dir, f
	return nil
}

// Path is the directory's path.
func (w *workDir) Path() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.path
}

// ensure makes the directory again if it is gone, at the same path, and
// reports whether it had to. An error means no work can be done.
func (w *workDir) ensure() (recreated bool, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lock == nil {
		return false, errors.New("the pool is closed")
	}
	if _, err := os.Stat(filepath.Join(w.path, ownerFile)); err == nil {
		return false, nil
	}
	if err := os.MkdirAll(w.path, 0o700); err != nil {
		return false, fmt.Errorf("LibreOffice's work directory %s is gone and cannot be made again: %w", w.path, err)
	}
	if err := w.own(w.path); err != nil {
		return false, fmt.Errorf("LibreOffice's work directory %s is gone and cannot be made again: %w", w.path, err)
	}
	return true, nil
}

// writable checks that files can be made in the directory.
func (w *workDir) writable() error {
	f, err := os.CreateTemp(w.Path(), "probe-")
	if err != nil {
		return fmt.Errorf("LibreOffice's work directory cannot be written: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// remove deletes the directory and drops its lock.
func (w *workDir) remove() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lock == nil {
		return
	}
	os.RemoveAll(w.path)
	w.lock.Close()
	w.lock = nil
}

// ownerAlive says whether dir's owner file is locked by a live process.
// A directory without one is treated as live while it is young (its
// owner may be writing the file) and as dead after an hour.
func ownerAlive(dir string) bool {
	f, err := os.Open(filepath.Join(dir, ownerFile))
	if err != nil {
		fi, err := os.Stat(dir)
		return err == nil && time.Since(fi.ModTime()) < time.Hour
	}
	defer f.Close() // drops the lock taken below, if any
	return syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB) != nil
}

// sweepStale removes the work directories of the server instance's dead
// plugins under tempDir and the sockets their instances recorded; it
// leaves other instances' directories alone. It returns what it removed.
func sweepStale(tempDir, instance string) []string {
	dirs, _ := filepath.Glob(filepath.Join(tempDir, workPrefixFor(instance)+"*"))
	var removed []string
	for _, dir := range dirs {
		if ownerAlive(dir) {
			continue
		}
		lists, _ := filepath.Glob(filepath.Join(dir, "*", socketsFile))     // instances
		cold, _ := filepath.Glob(filepath.Join(dir, "*", "*", socketsFile)) // cold retries in jobs
		lists = append(lists, cold...)
		for _, l := range lists {
			b, _ := os.ReadFile(l)
			for _, s := range strings.Fields(string(b)) {
				if isOfficeSocket(s) {
					os.Remove(s)
				}
			}
		}
		if os.RemoveAll(dir) == nil {
			removed = append(removed, dir)
		}
	}
	return removed
}

// isOfficeSocket guards the sweep against a tampered sockets file.
func isOfficeSocket(path string) bool {
	return strings.HasPrefix(path, pipeSocket("")) && !strings.Contains(path, "..")
}

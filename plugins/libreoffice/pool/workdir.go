package pool

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Every file the pool makes lives under one work directory per process,
// dragoman-lo-* in the temp dir, with an owner file naming that process.
// A SIGKILLed plugin cannot remove it, so each start sweeps the work
// directories of owners that are gone, together with the pipe sockets
// their instances left in /tmp.
const (
	workPrefix  = "dragoman-lo-"
	ownerFile   = "owner"   // "pid start-time" of the owning process
	socketsFile = "sockets" // in an instance directory: its socket paths, one a line
)

// newWorkDir creates this process's work directory under tempDir.
func newWorkDir(tempDir string) (string, error) {
	dir, err := os.MkdirTemp(tempDir, workPrefix)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, ownerFile), []byte(processID(os.Getpid())), 0o600); err != nil {
		os.RemoveAll(dir)
		return "", err
	}
	return dir, nil
}

// processID identifies a live process by pid and start time, so a reused
// pid does not keep a dead owner's files alive. Empty if pid is not running.
func processID(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		if syscall.Kill(pid, 0) == nil { // no /proc: the pid alone
			return strconv.Itoa(pid)
		}
		return ""
	}
	// Field 22 is the start time; the command name (field 2) may hold
	// spaces, so count after its closing parenthesis.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 20 {
		return strconv.Itoa(pid)
	}
	if fields[0] == "Z" || fields[0] == "X" {
		return "" // dead, waiting for a parent (or an init that never reaps) to collect it
	}
	return strconv.Itoa(pid) + " " + fields[19]
}

// ownerAlive says whether the process recorded in dir's owner file runs.
// A directory without one is treated as live while it is young (its
// owner may be writing the file) and as dead after an hour (left by an
// older version).
func ownerAlive(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, ownerFile))
	if err != nil {
		fi, err := os.Stat(dir)
		return err == nil && time.Since(fi.ModTime()) < time.Hour
	}
	id := strings.TrimSpace(string(b))
	pid, err := strconv.Atoi(strings.Fields(id + " x")[0])
	if err != nil {
		return false
	}
	return processID(pid) == id
}

// sweepStale removes the work directories of dead owners under tempDir
// and the sockets their instances recorded. It returns what it removed.
func sweepStale(tempDir string) []string {
	dirs, _ := filepath.Glob(filepath.Join(tempDir, workPrefix+"*"))
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

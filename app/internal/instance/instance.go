// Package instance tags every process a server starts with the server's
// identity and data dir, so that the next server on the same data dir can
// find and kill what an earlier, dead one left running.
package instance

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Env tags every process the server starts (plugins, and what
// they start: soffice, its helper) with "pid:start-time:data-dir" of the
// server, inherited through the environment. A server killed by SIGKILL
// takes its plugins with it by their parent-death signal; the tag lets the
// next server on the same data dir find and kill anything that still got
// away (a platform without the signal, a plugin that forked off).
const Env = "DRAGOMAN_INSTANCE"

// Tag sets this server's tag for the processes it will start.
func Tag(dataDir string) error {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return err
	}
	return os.Setenv(Env, ProcessTag(os.Getpid())+":"+abs)
}

// ProcessTag is "pid:start-time", which a reused pid does not match;
// empty when the process is gone or a zombie.
func ProcessTag(pid int) string {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return ""
	}
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 20 || fields[0] == "Z" || fields[0] == "X" {
		return ""
	}
	return strconv.Itoa(pid) + ":" + fields[19]
}

// SweepStrays kills the processes tagged by an earlier server on the same
// data dir that is no longer running, and returns their pids.
func SweepStrays(dataDir string) []int {
	abs, err := filepath.Abs(dataDir)
	if err != nil {
		return nil
	}
	entries, _ := os.ReadDir("/proc")
	var killed []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		tag := TagOf(pid)
		owner, dir, ok := SplitTag(tag)
		if !ok || dir != abs || ProcessTag(ownerPID(owner)) == owner {
			continue // not ours, another data dir's, or its server still runs
		}
		if syscall.Kill(pid, syscall.SIGKILL) == nil {
			killed = append(killed, pid)
		}
	}
	return killed
}

// TagOf reads the instance tag from a process's environment.
func TagOf(pid int) string {
	env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if err != nil {
		return ""
	}
	for _, kv := range bytes.Split(env, []byte{0}) {
		if v, ok := bytes.CutPrefix(kv, []byte(Env+"=")); ok {
			return string(v)
		}
	}
	return ""
}

// SplitTag splits "pid:start:dir" into "pid:start" and dir.
func SplitTag(tag string) (owner, dir string, ok bool) {
	parts := strings.SplitN(tag, ":", 3)
	if len(parts) != 3 || parts[2] == "" {
		return "", "", false
	}
	return parts[0] + ":" + parts[1], parts[2], true
}

func ownerPID(owner string) int {
	pid, _ := strconv.Atoi(strings.SplitN(owner, ":", 2)[0])
	return pid
}

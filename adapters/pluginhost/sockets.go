package pluginhost

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// socketPrefix names the directories that hold go-plugin's unix sockets:
// dragoman-plugins-<host pid>-<random>. go-plugin removes a socket when it
// kills a plugin itself, but not one whose plugin or host was SIGKILLed, so
// the host keeps them in a directory of its own, removes it on Close, and
// at start removes those of hosts that are gone.
const socketPrefix = "dragoman-plugins-"

func newSocketDir() (string, error) {
	sweepSocketDirs(os.TempDir())
	return os.MkdirTemp("", fmt.Sprintf("%s%d-", socketPrefix, os.Getpid()))
}

// sweepSocketDirs removes socket directories whose host process is gone.
func sweepSocketDirs(tmp string) {
	entries, _ := os.ReadDir(tmp)
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), socketPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pidStr, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidStr)
		if err != nil || pid == os.Getpid() || alive(pid) {
			continue
		}
		_ = os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}

// alive reports whether a process exists and is not a zombie.
func alive(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true // no /proc: trust kill(0)
	}
	// The state follows the command name in parentheses.
	if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}

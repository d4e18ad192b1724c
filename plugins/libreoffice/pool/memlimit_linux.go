package pool

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// memoryLimit caps every soffice.bin the pool starts (issue 26: a 48 MB
// RTF took the tree to 2.43 GB). Where the plugin's cgroup v2 is
// delegated to it with the memory controller, each instance runs in a
// cgroup of its own with memory.max: the whole tree, counted by the
// kernel, and an OOM kill it reports. Elsewhere (cgroup v1, a container
// without delegation, no write access) soffice.bin gets RLIMIT_DATA:
// its heap and private mappings, which is what a document grows.
type memoryLimit struct {
	bytes  int64
	mode   string // for the log
	cgroup string // where instances' cgroups are made; "" with RLIMIT_DATA
}

func newMemoryLimit(bytes int64) *memoryLimit {
	m := &memoryLimit{bytes: bytes}
	if bytes <= 0 {
		m.mode = "none: LibreOffice's memory is not capped (" + EnvMemory + "=0)"
		return m
	}
	dir, err := delegatedCgroup()
	if err == nil {
		m.cgroup = dir
		m.mode = fmt.Sprintf("cgroup v2: memory.max %s per instance under %s", mib(bytes), dir)
		return m
	}
	m.mode = fmt.Sprintf("RLIMIT_DATA %s per instance (no cgroup v2 memory controller to use: %v)", mib(bytes), err)
	return m
}

// cgroup2Mount is where the cgroup v2 hierarchy is mounted: usually
// /sys/fs/cgroup, /sys/fs/cgroup/unified on a hybrid (v1 and v2) system.
func cgroup2Mount() (string, error) {
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(b), "\n") {
		// id parent major:minor root mount-point options ... - fstype source ...
		pre, post, ok := strings.Cut(line, " - ")
		f := strings.Fields(pre)
		if ok && len(f) >= 5 && strings.HasPrefix(post, "cgroup2 ") {
			return f[4], nil
		}
	}
	return "", errors.New("no cgroup v2 file system is mounted")
}

// delegatedCgroup returns this process's cgroup v2 directory when the
// memory controller can be given to child cgroups made there: the
// process moves itself into a leaf first, as cgroup v2 lets only leaves
// hold processes.
func delegatedCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var rel string
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(line, "0::"); ok {
			rel = r
		}
	}
	if rel == "" {
		return "", errors.New("not in a cgroup v2 hierarchy")
	}
	root, err := cgroup2Mount()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(root, filepath.Clean("/"+rel))
	var fs unix.Statfs_t
	if err := unix.Statfs(dir, &fs); err != nil || fs.Type != unix.CGROUP2_SUPER_MAGIC {
		return "", fmt.Errorf("%s is not a cgroup v2 file system", dir)
	}
	if !hasWord(filepath.Join(dir, "cgroup.controllers"), "memory") {
		return "", fmt.Errorf("the memory controller is not available in %s", dir)
	}
	if unix.Access(filepath.Join(dir, "cgroup.subtree_control"), unix.W_OK) != nil {
		return "", fmt.Errorf("%s is not delegated to this process (no write access)", dir)
	}
	if hasWord(filepath.Join(dir, "cgroup.subtree_control"), "memory") {
		return dir, nil
	}
	leaf := filepath.Join(dir, "dragoman-plugin-"+strconv.Itoa(os.Getpid()))
	if err := os.Mkdir(leaf, 0o755); err != nil && !os.IsExist(err) {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(leaf, "cgroup.procs"), []byte("0"), 0); err != nil {
		return "", fmt.Errorf("moving into %s: %w", leaf, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte("+memory"), 0); err != nil {
		return "", fmt.Errorf("enabling the memory controller in %s: %w", dir, err)
	}
	return dir, nil
}

func hasWord(path, word string) bool {
	b, err := os.ReadFile(path)
	return err == nil && strings.Contains(" "+strings.Join(strings.Fields(string(b)), " ")+" ", " "+word+" ")
}

// memoryCgroup is one instance's cgroup, or nothing with RLIMIT_DATA.
type memoryCgroup struct {
	dir string
	fd  int
}

// prepare readies cmd to start under the limit: in a new cgroup of its
// own (CLONE_INTO_CGROUP, so nothing runs outside it even briefly).
func (m *memoryLimit) prepare(cmd *exec.Cmd) (*memoryCgroup, error) {
	if m == nil || m.cgroup == "" || m.bytes <= 0 {
		return nil, nil
	}
	dir, err := os.MkdirTemp(m.cgroup, "dragoman-lo-")
	if err != nil {
		return nil, err
	}
	cg := &memoryCgroup{dir: dir, fd: -1}
	if err := os.WriteFile(filepath.Join(dir, "memory.max"), []byte(strconv.FormatInt(m.bytes, 10)), 0); err != nil {
		cg.remove()
		return nil, err
	}
	os.WriteFile(filepath.Join(dir, "memory.swap.max"), []byte("0"), 0) // absent without swap accounting
	if cg.fd, err = unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
		cg.remove()
		return nil, err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, cg.fd
	return cg, nil
}

// started applies the limit to a started soffice.bin: RLIMIT_DATA where
// there is no cgroup. The cgroup's descriptor is no longer needed then.
func (m *memoryLimit) started(pid int, cg *memoryCgroup) {
	if cg != nil && cg.fd >= 0 {
		unix.Close(cg.fd)
		cg.fd = -1
	}
	if m != nil && m.cgroup == "" && m.bytes > 0 {
		limitData(pid, m.bytes)
	}
}

// oomKilled says whether the kernel killed a process of the cgroup for
// going over memory.max.
func (cg *memoryCgroup) oomKilled() bool {
	if cg == nil {
		return false
	}
	f, err := os.Open(filepath.Join(cg.dir, "memory.events"))
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if n, ok := strings.CutPrefix(s.Text(), "oom_kill "); ok && n != "0" {
			return true
		}
	}
	return false
}

// remove deletes the cgroup once its processes are gone.
func (cg *memoryCgroup) remove() {
	if cg == nil {
		return
	}
	if cg.fd >= 0 {
		unix.Close(cg.fd)
		cg.fd = -1
	}
	for range 50 {
		if err := os.Remove(cg.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return
		}
		time.Sleep(20 * time.Millisecond) // the kernel empties it after the last exit
	}
}

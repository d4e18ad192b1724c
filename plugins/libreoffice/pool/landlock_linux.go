package pool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Another wall against documents that link to files and the network,
// beside the profile and the network namespace: soffice runs under a
// Landlock domain. The file system is read-only (and executable) under
// the system's directories, soffice's own included, and in /etc only
// where soffice reads; /dev/shm is closed; soffice may write
// only under the work directory it was given; in /tmp it may make and
// remove its pipe sockets and nothing else (it may not read there); and,
// with Landlock ABI 4 or later, it may not connect or bind a TCP socket at
// all. A document that names a local file or a loopback listener gets
// nothing from either, even where the network namespace is not allowed.
//
// Landlock restricts the thread that asks and what it executes, so the
// pool starts soffice.bin through its own binary: run with landlockArg,
// the binary's init restricts itself and executes soffice.bin in its
// place (same pid, process group and parent-death signal).

// landlockArg is the hidden first argument of that re-execution:
// self landlockArg <work dir> <soffice.bin> <args>...
const landlockArg = "-dragoman-landlock-exec"

func init() {
	if len(os.Args) >= 4 && os.Args[1] == landlockArg {
		err := landlockExec(os.Args[2], os.Args[3], os.Args[3:])
		fmt.Fprintln(os.Stderr, "landlock:", err)
		os.Exit(127)
	}
}

var landlock struct {
	once sync.Once
	abi  int
	self string
	mode string
}

// landlockABI is the kernel's Landlock ABI version, 0 without Landlock
// (or without a binary of ours to start soffice through), probed once,
// and a description.
func landlockABI() (int, string) {
	landlock.once.Do(func() {
		abi, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
		if errno != 0 {
			landlock.mode = "none: the kernel has no Landlock (" + errno.Error() + "); the profile and the network namespace remain"
			return
		}
		self, err := os.Executable()
		if err != nil {
			landlock.mode = "none: this binary cannot be found to start soffice through (" + err.Error() + ")"
			return
		}
		landlock.abi, landlock.self = int(abi), self
		landlock.mode = fmt.Sprintf("Landlock ABI %d: files read-only outside the work directory", abi)
		if abi >= 4 {
			landlock.mode += ", no TCP"
		} else {
			landlock.mode += "; TCP not restricted (ABI 4 needed)"
		}
	})
	return landlock.abi, landlock.mode
}

// landlocked returns cmd (which runs bin) changed to run bin under
// Landlock with write access under work only, or cmd as it is where the
// kernel has no Landlock.
func landlocked(cmd *exec.Cmd, work string) *exec.Cmd {
	abi, _ := landlockABI()
	if abi == 0 {
		return cmd
	}
	c := exec.Command(landlock.self, append([]string{landlockArg, work, cmd.Path}, cmd.Args[1:]...)...)
	c.Env, c.Stdout, c.Stderr, c.SysProcAttr = cmd.Env, cmd.Stdout, cmd.Stderr, cmd.SysProcAttr
	return c
}

// Landlock's file system rights, by the ABI that introduced them.
const (
	fsRead = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	fsExec = fsRead | unix.LANDLOCK_ACCESS_FS_EXECUTE
	fsV1   = 1<<13 - 1 // EXECUTE … MAKE_SYM
)

// fsRights is every file system right the ABI knows.
func fsRights(abi int) uint64 {
	r := uint64(fsV1)
	if abi >= 2 {
		r |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		r |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if abi >= 5 {
		r |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	return r
}

// landlockExec restricts this thread and executes bin with argv; it
// returns only on failure.
func landlockExec(work, bin string, argv []string) error {
	runtime.LockOSThread() // the domain is the calling thread's, and exec's
	abi, _ := landlockABI()
	if abi == 0 {
		return fmt.Errorf("no Landlock")
	}
	all := fsRights(abi)
	attr := unix.LandlockRulesetAttr{Handled_access_fs: all}
	size := unsafe.Offsetof(attr.Handled_access_net)
	if abi >= 4 {
		attr.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
		size = unsafe.Offsetof(attr.Scoped)
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if errno != 0 {
		return fmt.Errorf("create ruleset: %w", errno)
	}
	rules := []struct {
		path   string
		access uint64
	}{
		{"/usr", fsExec}, {"/bin", fsExec}, {"/sbin", fsExec}, {"/lib", fsExec}, {"/lib32", fsExec},
		{"/lib64", fsExec}, {"/libx32", fsExec}, {"/opt", fsExec},
		// Of /etc what soffice reads, not all of it (/etc/shadow, private
		// keys: readable to a service running as root).
		{"/etc/libreoffice", fsRead}, {"/etc/fonts", fsRead}, {"/etc/passwd", fsRead}, {"/etc/group", fsRead},
		{"/etc/nsswitch.conf", fsRead}, {"/etc/localtime", fsRead}, {"/etc/timezone", fsRead},
		{"/etc/ld.so.cache", fsRead}, {"/etc/ld.so.preload", fsRead}, {"/etc/papersize", fsRead},
		{"/etc/locale.alias", fsRead}, {"/etc/mime.types", fsRead}, {"/etc/xdg", fsRead}, {"/etc/dconf", fsRead},
		{filepath.Dir(bin), fsExec},
		// Debian links LibreOffice's shared extensions there.
		{"/var/spool/libreoffice", fsRead}, {"/var/lib/libreoffice", fsRead},
		{"/var/cache/fontconfig", fsRead}, {"/sys", fsRead},
		// Its own /proc entries (self is this process, soon soffice.bin),
		// not another process's (its environment, its open files).
		{"/proc/self", fsRead}, {"/proc/filesystems", fsRead}, {"/proc/meminfo", fsRead},
		{"/proc/cpuinfo", fsRead}, {"/proc/stat", fsRead}, {"/proc/sys", fsRead},
		{"/dev/null", all}, {"/dev/zero", fsRead}, {"/dev/urandom", fsRead}, {"/dev/random", fsRead},
		// The UNO pipe and the single-instance socket are made in /tmp.
		{"/tmp", unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE},
		{work, all},
	}
	for _, r := range rules {
		if err := landlockAllow(int(fd), r.path, r.access); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return fmt.Errorf("restrict self: %w", errno)
	}
	unix.Close(int(fd))
	return unix.Exec(bin, argv, os.Environ())
}

// landlockAllow adds access under path to the ruleset; a path that does
// not exist is skipped.
func landlockAllow(ruleset int, path string, access uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err == unix.ENOENT {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open %s: %w", path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		// A file takes only the rights that apply to files.
		access &= unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE |
			unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	if _, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); errno != 0 {
		return fmt.Errorf("allow %s: %w", path, errno)
	}
	return nil
}

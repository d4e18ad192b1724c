package pool

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// restartExitCode is how soffice.bin asks to be started again, e.g.
// right after it has created a fresh profile; oosplash normally does it.
const restartExitCode = 81

// officeBinary finds soffice.bin next to the soffice script that soffice
// (a name on PATH or a path) resolves to. The script execs oosplash,
// which forks soffice.bin: a grandchild that no parent-death signal of
// ours reaches, so the pool runs soffice.bin itself.
func officeBinary(soffice string) (string, error) {
	p, err := exec.LookPath(soffice)
	if err != nil {
		return "", err
	}
	if p, err = filepath.EvalSymlinks(p); err != nil {
		return "", err
	}
	if filepath.Base(p) == "soffice.bin" {
		return p, nil
	}
	bin := filepath.Join(filepath.Dir(p), "soffice.bin")
	if _, err := os.Stat(bin); err != nil {
		return "", fmt.Errorf("no soffice.bin next to %s: %w", p, err)
	}
	return bin, nil
}

// office is one soffice.bin run, restarted while it exits asking for it.
type office struct {
	bin  string
	args []string
	env  []string
	out  io.Writer
	// ownNet runs it in a network namespace of its own where possible.
	ownNet bool
	// sandbox, when set, runs it under Landlock, writing under this
	// directory only (landlock_linux.go).
	sandbox string
	mem     *memoryLimit

	mu      sync.Mutex
	pid     int             // of the current soffice.bin, also its process group
	cgroups []*memoryCgroup // of every run, removed once it is done
	stopped bool            // no more restarts
	done    chan struct{}
	err     error // the final exit, once done is closed
}

func startOffice(bin string, args, env []string, out io.Writer, ownNet bool, sandbox string, mem *memoryLimit) (*office, error) {
	o := &office{bin: bin, args: args, env: env, out: out, ownNet: ownNet, sandbox: sandbox, mem: mem, done: make(chan struct{})}
	exited, err := o.start()
	if err != nil {
		return nil, err
	}
	go o.supervise(exited)
	return o, nil
}

func (o *office) start() (<-chan error, error) {
	cmd := exec.Command(o.bin, o.args...)
	cmd.Env = append(os.Environ(), "SAL_ENABLE_FILE_LOCKING=1") // as the soffice script sets it
	cmd.Env = append(cmd.Env, o.env...)
	cmd.Stdout, cmd.Stderr = o.out, o.out
	if o.ownNet {
		isolateNetwork(cmd)
	}
	if o.sandbox != "" {
		cmd = landlocked(cmd, o.sandbox)
	}
	cg, err := o.mem.prepare(cmd)
	if err != nil {
		return nil, fmt.Errorf("memory cgroup for %s: %w", o.bin, err)
	}
	exited, err := startTied(cmd)
	if err != nil {
		cg.remove()
		return nil, fmt.Errorf("start %s: %w", o.bin, err)
	}
	o.pid = cmd.Process.Pid
	o.mem.started(o.pid, cg)
	if cg != nil {
		o.cgroups = append(o.cgroups, cg)
	}
	return exited, nil
}

// oomKilled says whether the kernel killed soffice for going over its
// cgroup's memory.max (never with RLIMIT_DATA: an allocation fails then).
func (o *office) oomKilled() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, cg := range o.cgroups {
		if cg.oomKilled() {
			return true
		}
	}
	return false
}

// currentPID is the running soffice.bin's pid.
func (o *office) currentPID() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.pid
}

func (o *office) supervise(exited <-chan error) {
	defer close(o.done)
	for restarts := 0; ; restarts++ {
		err := <-exited
		waitGroupGone(o.pid) // anything it forked
		var exit *exec.ExitError
		o.mu.Lock()
		again := !o.stopped && restarts < 3 && errors.As(err, &exit) && exit.ExitCode() == restartExitCode
		if again {
			exited, err = o.start()
		}
		o.mu.Unlock()
		if !again || err != nil {
			o.err = err
			return
		}
	}
}

// stop kills soffice.bin and whatever it forked, and waits for them.
func (o *office) stop() {
	o.mu.Lock()
	o.stopped = true
	pid := o.pid
	o.mu.Unlock()
	syscall.Kill(-pid, syscall.SIGKILL)
	<-o.done
	o.mu.Lock()
	cgroups := o.cgroups
	o.cgroups = nil
	o.mu.Unlock()
	for _, cg := range cgroups {
		cg.remove()
	}
}

// waitGroupGone kills what is left of a process group and waits (up to
// 5 s) until it is empty.
func waitGroupGone(pgid int) {
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if syscall.Kill(-pgid, syscall.SIGKILL) == syscall.ESRCH {
			return
		}
	}
}

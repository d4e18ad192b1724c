package pool

import (
	"os/exec"
	"syscall"
)

// tieToParent gives cmd its own process group (so one kill ends whatever
// it forks) and SIGKILL as its parent-death signal.
func tieToParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

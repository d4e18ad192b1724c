package pool

import (
	"os/exec"
	"syscall"
)

// tieToParent gives cmd its own process group (so one kill ends whatever
// it forks) and SIGKILL as its parent-death signal, keeping any other
// attributes already set (a network namespace).
func tieToParent(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
}

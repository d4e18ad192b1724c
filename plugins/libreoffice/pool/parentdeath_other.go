//go:build !linux

package pool

import (
	"os/exec"
	"syscall"
)

// tieToParent gives cmd its own process group. Without a parent-death
// signal (Linux only), a SIGKILLed plugin leaves its soffice running
// until the next start sweeps its files.
func tieToParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

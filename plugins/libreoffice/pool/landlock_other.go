//go:build !linux

package pool

import "os/exec"

func landlockABI() (int, string) { return 0, "none: Landlock is Linux only" }

func landlocked(cmd *exec.Cmd, _ string) *exec.Cmd { return cmd }

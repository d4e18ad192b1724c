//go:build !linux

package pluginhost

import "os/exec"

// tieToParent does nothing where there is no parent-death signal; the
// serve command's start-up sweep removes what a killed host left.
func tieToParent(*exec.Cmd) {}

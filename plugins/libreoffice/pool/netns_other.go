//go:build !linux

package pool

import "os/exec"

func netNamespace() (any, string) { return nil, "none: network namespaces are Linux only" }

func isolateNetwork(*exec.Cmd) {}

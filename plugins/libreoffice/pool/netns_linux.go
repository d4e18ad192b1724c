package pool

import (
	"os"
	"os/exec"
	"sync"
	"syscall"
)

// The second wall against documents that link to the network: soffice
// runs in a network namespace of its own, which has only a loopback that
// is down, so no connection it attempts reaches anything. The UNO pipe
// is a socket file in /tmp, which works across network namespaces. A
// root plugin (CAP_SYS_ADMIN) unshares the network directly; otherwise a
// user namespace that maps our own uid and gid makes it possible where
// the kernel allows unprivileged user namespaces. Where neither works
// soffice shares the plugin's network and the profile is the only wall.

var netns struct {
	once sync.Once
	attr *syscall.SysProcAttr // template, nil when none works
	mode string
}

// netNamespace returns the attributes that give a child its own network
// namespace, probing once what this machine allows, and a description.
func netNamespace() (*syscall.SysProcAttr, string) {
	netns.once.Do(func() {
		netns.mode = "none: soffice shares the plugin's network (no CAP_SYS_ADMIN, no user namespaces)"
		uid, gid := os.Getuid(), os.Getgid()
		for _, c := range []struct {
			attr *syscall.SysProcAttr
			mode string
		}{
			{&syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}, "own network namespace"},
			{&syscall.SysProcAttr{
				Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET,
				UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
				GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
			}, "own user and network namespace"},
		} {
			if probeNamespace(c.attr) {
				netns.attr, netns.mode = c.attr, c.mode
				return
			}
		}
	})
	return netns.attr, netns.mode
}

// probeNamespace runs a trivial program with attr.
func probeNamespace(attr *syscall.SysProcAttr) bool {
	prog, err := exec.LookPath("true")
	if err != nil {
		return false
	}
	cmd := exec.Command(prog)
	a := *attr
	cmd.SysProcAttr = &a
	return cmd.Run() == nil
}

// isolateNetwork gives cmd its own network namespace where possible.
func isolateNetwork(cmd *exec.Cmd) {
	attr, _ := netNamespace()
	if attr == nil {
		return
	}
	a := *attr
	cmd.SysProcAttr = &a
}

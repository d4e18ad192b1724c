package pluginhost

import (
	"os/exec"
	"runtime"
	"time"

	"github.com/hashicorp/go-plugin"
)

// pluginCmd is the command of a plugin process, which the kernel kills
// when the host dies, even by SIGKILL (issue 15: provider plugins and
// LibreOffice outlived a killed server).
func pluginCmd(path string) *exec.Cmd {
	cmd := exec.Command(path) // go-plugin passes the host's environment on
	tieToParent(cmd)
	return cmd
}

// dispenseTied starts the plugin process from an OS thread that stays
// locked until the process exits: Linux sends the parent-death signal
// when the thread that forked the child exits, and the Go runtime may
// retire threads.
func dispenseTied(client *plugin.Client, kind string) (any, error) {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		_, err := client.Start()
		started <- err
		for err == nil && !client.Exited() {
			time.Sleep(time.Second)
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return dispense(client, kind)
}

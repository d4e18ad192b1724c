package pool

import (
	"os/exec"
	"runtime"
)

// startTied starts cmd so that the kernel kills it when this process
// dies, even by SIGKILL, where no cleanup code of ours can run. The
// returned channel yields cmd.Wait's result.
//
// Linux sends the death signal when the thread that forked the child
// exits, not the process; the Go runtime may retire threads, so the fork
// happens on a thread locked until the child has been waited for.
func startTied(cmd *exec.Cmd) (<-chan error, error) {
	tieToParent(cmd)
	started := make(chan error, 1)
	exited := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		exited <- cmd.Wait()
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return exited, nil
}

package childproc

import (
	"os/exec"
	"runtime"
	"sync"
	"syscall"
)

// request is one Start for the starter goroutine.
type request struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	starterOnce sync.Once
	requests    chan request
)

// start hands cmd to the starter, which forks it from its own thread.
func start(cmd *exec.Cmd) error {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	starterOnce.Do(func() {
		requests = make(chan request)
		ready := make(chan struct{})
		go starter(ready)
		<-ready
	})
	r := request{cmd: cmd, done: make(chan error, 1)}
	requests <- r
	return <-r.done
}

// starter locks itself to its thread and never returns, so that thread —
// the parent every child's death signal watches — lives as long as the
// process.
func starter(ready chan<- struct{}) {
	runtime.LockOSThread()
	close(ready)
	for r := range requests {
		r.done <- r.cmd.Start()
	}
}

//go:build !linux

package childproc

import "os/exec"

// start is Cmd.Start: this system has no parent-death signal.
func start(cmd *exec.Cmd) error { return cmd.Start() }

//go:build unix

package safefile

import (
	"errors"
	"syscall"
)

// running reports whether a process pid exists (a signal 0 reaches it,
// or it exists and is not ours to signal).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

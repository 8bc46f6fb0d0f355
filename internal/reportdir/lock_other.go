//go:build !linux

package reportdir

import (
	"errors"
	"os"
)

// lockFile opens path; without flock here, no report is refused as busy.
func lockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
}

// exchange is not available: install moves the files one by one.
func exchange(a, b string) error { return errors.New("no atomic exchange on this system") }

// sameDevice is false: without exchange, staging stays inside.
func sameDevice(a, b string) bool { return false }

//go:build !unix

package benchtest

import "time"

// cpuTime reports that this platform's process CPU time is not read.
func cpuTime() (time.Duration, bool) { return 0, false }

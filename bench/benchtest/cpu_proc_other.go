//go:build !linux

package benchtest

import "time"

// processCPUSupported is whether processCPU reads anything here.
const processCPUSupported = false

// processCPU reports that another process's CPU time is not read here.
func processCPU(int) (time.Duration, bool) { return 0, false }

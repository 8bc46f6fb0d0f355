package lockstest

import (
	"time"

	"github.com/locksim/locksim/clock/clocktest"
)

// ManualClock is the manual clock of package clocktest, where it lives so
// that the tests of package locks itself can use it too (see
// clocktest.ManualClock).
type ManualClock = clocktest.ManualClock

// NewManualClock returns a clock reading start (see
// clocktest.NewManualClock).
func NewManualClock(start time.Time, onStep func(d time.Duration)) *ManualClock {
	return clocktest.NewManualClock(start, onStep)
}

// ErrClockStopped is what Sleep returns once the clock is stopped.
var ErrClockStopped = clocktest.ErrClockStopped

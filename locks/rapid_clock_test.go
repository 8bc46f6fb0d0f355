package locks_test

import (
	"time"

	"pgregory.net/rapid"

	"github.com/locksim/locksim/locks/lockstest"
)

// stepEpoch is where the rapid tests' clocks start.
var stepEpoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// newStepClock is the clock of the rapid tests: the manual clock, whose
// time moves only in Advance, together with the Redis nodes' TTLs
// (onMove), so a watchdog renews at exactly the instants it asks for; and
// Parallel runs in index order, so a Redlock's fan-out is deterministic.
func newStepClock(onMove func(time.Duration)) *lockstest.ManualClock {
	c := lockstest.NewManualClock(stepEpoch, onMove)
	c.Sequential = true
	return c
}

// advance moves clk d forward; background work that does not come to rest
// fails the check.
func advance(t *rapid.T, clk *lockstest.ManualClock, d time.Duration) {
	if err := clk.Advance(d); err != nil {
		t.Fatalf("Advance(%v): %v", d, err)
	}
}

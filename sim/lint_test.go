package sim

import (
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// seamExceptions are the only places in the simulator's own code (sim/ and
// every package below it) allowed to escape the seams, each with the
// reason (seamlint.Exception: a file and what is found there, without
// line numbers, so that edits elsewhere in the file do not move them).
var seamExceptions = []seamlint.Exception{
	{File: "sched/sched.go", Finding: "bare go statement", Why: "the scheduler loop, and the stall monitor that must run in real time beside it to report a hung hand-off (the simulated Gs run on iter.Pull coroutines the loop switches to, one at a time)"},
	{File: "sched/sched.go", Finding: "time.NewTicker", Why: "the stall monitor's real-time tick (StallAfter is real time by design)"},
}

// TestSimulatorStaysInsideTheSeams runs the seam lint over the simulator's
// own code: a wall-clock read, a real sleep or timer, global randomness or
// a goroutine the scheduler does not own would make a seed's run differ
// from one machine (or one run) to the next. Every finding must be one of
// seamExceptions, and every exception must still be found (an exception
// that matches nothing is stale and must go).
func TestSimulatorStaysInsideTheSeams(t *testing.T) {
	seamlint.Check(t, "./...", 40, seamExceptions...)
}

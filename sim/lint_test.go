package sim

import (
	"strings"
	"testing"

	"github.com/locksim/locksim/seamlint"
)

// seamExceptions are the only places in the simulator's own code (sim/ and
// every package below it) allowed to escape the seams, each with the
// reason. A finding matches an exception when it is in that file and says
// that thing; line numbers are left out so that edits elsewhere in the
// file do not move them.
var seamExceptions = []struct{ file, finding, why string }{
	{"sched/sched.go", "bare go statement", "the scheduler loop, and the stall monitor that must run in real time beside it to report a hung hand-off (the simulated Gs run on iter.Pull coroutines the loop switches to, one at a time)"},
	{"sched/sched.go", "time.NewTicker", "the stall monitor's real-time tick (StallAfter is real time by design)"},
}

// TestSimulatorStaysInsideTheSeams runs the seam lint over the simulator's
// own code: a wall-clock read, a real sleep or timer, global randomness or
// a goroutine the scheduler does not own would make a seed's run differ
// from one machine (or one run) to the next. Every finding must be one of
// seamExceptions, and every exception must still be found (an exception
// that matches nothing is stale and must go).
func TestSimulatorStaysInsideTheSeams(t *testing.T) {
	found, checked, err := seamlint.Tree(".")
	if err != nil {
		t.Fatal(err)
	}
	if checked < 40 {
		t.Fatalf("checked only %d files under sim/; the walk is wrong", checked)
	}
	used := make([]bool, len(seamExceptions))
	for _, f := range found {
		i := seamException(f)
		if i < 0 {
			t.Errorf("%s (the simulator must stay deterministic; if this is one of its own real-time needs, add it to seamExceptions with the reason)", f)
			continue
		}
		used[i] = true
	}
	for i, e := range seamExceptions {
		if !used[i] {
			t.Errorf("seamExceptions: %s %q is no longer found; remove it", e.file, e.finding)
		}
	}
}

// seamException returns the index of the exception finding f matches, or -1.
func seamException(f string) int {
	file, rest, _ := strings.Cut(f, ":")
	for i, e := range seamExceptions {
		if file == e.file && strings.Contains(rest, e.finding) {
			return i
		}
	}
	return -1
}

package realmode

import (
	"testing"
	"time"
)

// TestRunWaitsForALateTrigger: gc-pause in a run of 10ms, which ends
// before c1 can reach its first write (a client that the machine started
// late, or slowed, looks like this): the run goes on until the pause has
// fired, then for its 150ms and two TTLs more, as it would inside the
// duration. Before, it ended at 10ms with the pause unfired and a clean
// verdict.
func TestRunWaitsForALateTrigger(t *testing.T) {
	needRedis(t)
	sc := builtin(t, "gc-pause", 1)
	sc.Duration = 10 * time.Millisecond
	res := runReal(t, testConfig(t, "basic", sc, 1))
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	f := res.Faults[0]
	if !f.Fired || time.Duration(f.At) < sc.Duration {
		t.Fatalf("gc-pause's pause: %+v, want it fired past the run's %v", f, sc.Duration)
	}
	if end := time.Duration(f.At) + sc.Faults[0].For + 2*sc.TTL; res.Wall < end {
		t.Errorf("the run ended %v in, before the pause (fired at %v) and two TTLs after it were over (%v)", res.Wall, time.Duration(f.At), end)
	}
}

package sim

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

// scenarioFile parses the scenario file at path (relative to sim/).
func scenarioFile(t *testing.T, path string) scenario.Scenario {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := scenario.Parse(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return s
}

// TestLetGoHoldingsEndAndDoNotComeBack: the seeds that broke these cells
// before Release stopped the renewals as it began and a Release that
// failed ended its holding, and before an Acquire by
// a Locker holding nothing removed its own entries left in Redis.
//   - A release refused by the crashed node (fsync-always, the counterexample
//     of a lost release) left the renewal running: the watchdog held the lock
//     for the rest of the run (a stall), and Service's next Acquire re-entered
//     the holding it had let go of, with the same fencing token.
//   - A release whose request was lost (lossy-link) waits for its reply
//     until its timeout, and the renewals went on meanwhile, past the TTL.
//   - A release that the failover undid (failover-mid-retry-wait,
//     split-brain-wait) brought the released holding back on the promoted
//     replica: the owner's next Acquire re-entered it, token and all, and its
//     count never went back to zero.
func TestLetGoHoldingsEndAndDoNotComeBack(t *testing.T) {
	for _, tc := range []struct {
		pattern, file string
		seed          uint64
	}{
		{"watchdog", "../internal/gate/scenarios/fsync-always.txt", 4},
		{"watchdog", "../internal/gate/scenarios/fsync-always.txt", 17},
		{"watchdog-fenced", "../internal/gate/scenarios/fsync-always.txt", 11},
		{"service-fenced", "../internal/gate/scenarios/fsync-always.txt", 2},
		{"service-fenced", "../internal/gate/scenarios/failover-mid-retry-wait.txt", 1},
		{"service-fenced", "../internal/gate/scenarios/split-brain-wait.txt", 7},
		{"service-fenced", "simprop/testdata/outside/service-fenced-reentry-after-lost-release.txt", 1},
		{"watchdog", "../internal/gate/scenarios/lossy-link.txt", 17},
		{"watchdog-fenced", "../internal/gate/scenarios/lossy-link.txt", 1},
		{"service", "../internal/gate/scenarios/lossy-link.txt", 1},
		{"service-fenced", "../internal/gate/scenarios/lossy-link.txt", 17},
	} {
		r := run(t, lookupPattern(t, tc.pattern), scenarioFile(t, tc.file), tc.seed)
		if len(r.Violated) > 0 {
			t.Errorf("%s under %s, seed %d: violated %v (fence violations %d, stalls %d), want none",
				tc.pattern, filepath.Base(tc.file), tc.seed, r.Violated, r.Safety.FenceViolations, r.Liveness.Stalls)
		}
	}
}

// TestFairWaiterLostCallEndsInTime: a fair waiter whose own request or
// reply was lost (its queueing poll, its BLPOP, the wake-up it popped)
// waited for its call's read timeout and kept its place at the head of the
// queue until its waiter key expired, WaitTTL (480ms) later: the waiters
// behind it stalled past 5 TTL. With each call bounded by a third of
// WaitTTL, the waiter polls again in time.
func TestFairWaiterLostCallEndsInTime(t *testing.T) {
	sc := scenarioFile(t, "../internal/gate/scenarios/lossy-link.txt")
	for _, seed := range []uint64{3, 4, 5, 7, 12, 13, 15, 17} {
		r := run(t, lookupPattern(t, "fair"), sc, seed)
		if len(r.Violated) > 0 {
			t.Errorf("fair under lossy-link, seed %d: violated %v (stalls %d), want none", seed, r.Violated, r.Liveness.Stalls)
		}
	}
}

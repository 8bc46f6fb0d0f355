package sim

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

func lookupPattern(t *testing.T, name string) pattern.Pattern {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func builtin(t *testing.T, name string, p pattern.Pattern) scenario.Scenario {
	t.Helper()
	s, err := scenario.Lookup(name, p.Nodes)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func run(t *testing.T, p pattern.Pattern, s scenario.Scenario, seed uint64) *Result {
	t.Helper()
	res, err := Run(Config{Pattern: p, Scenario: s, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func runBuiltin(t *testing.T, pat, scen string, seed uint64) *Result {
	t.Helper()
	p := lookupPattern(t, pat)
	return run(t, p, builtin(t, scen, p), seed)
}

func TestBasicUnderGCPauseLosesAnUpdate(t *testing.T) {
	r := runBuiltin(t, "basic", "gc-pause", 1)
	if r.Safety.Overlaps == 0 || r.Safety.LostUpdates == 0 {
		t.Fatalf("%s\nwant two holders and a lost update", r.Summary())
	}
	if !slices.Equal(r.Violated, []string{"mutex"}) {
		t.Errorf("Violated = %v, want [mutex]", r.Violated)
	}
	if r.Violations[0].Kind != "overlap" || !slices.Equal(r.Violations[0].Clients, []string{"c1", "c2"}) {
		t.Errorf("first violation = %+v, want an overlap of c1 and c2", r.Violations[0])
	}
}

func TestFencedUnderGCPauseRejectsTheStaleWrite(t *testing.T) {
	r := runBuiltin(t, "fenced", "gc-pause", 1)
	if r.Safety.Overlaps == 0 {
		t.Fatalf("%s\nwant two holders: fencing does not stop them", r.Summary())
	}
	if r.Safety.LostUpdates != 0 || r.Safety.StaleRejected == 0 {
		t.Fatalf("%s\nwant no lost update: the store rejects the stale write", r.Summary())
	}
	if len(r.Violated) != 0 {
		t.Errorf("Violated = %v; fenced claims a safe store and monotonic fences, both held", r.Violated)
	}
}

// TestWatchdogKeepsSlowWorkButNotAPause: a watchdog renews through the
// holder's own slow step, but not through a pause that stops it too.
func TestWatchdogKeepsSlowWorkButNotAPause(t *testing.T) {
	if r := runBuiltin(t, "watchdog", "slow-work", 1); r.Safety.Overlaps != 0 {
		t.Errorf("slow-work: %s\nwant no overlap: the watchdog keeps renewing", r.Summary())
	}
	if r := runBuiltin(t, "basic", "slow-work", 1); r.Safety.Overlaps == 0 {
		t.Errorf("slow-work, basic: %s\nwant an overlap (no renewal)", r.Summary())
	}
	if r := runBuiltin(t, "watchdog", "gc-pause", 1); r.Safety.Overlaps == 0 {
		t.Errorf("gc-pause: %s\nwant an overlap: the paused watchdog cannot renew", r.Summary())
	}
}

func TestRedlockSurvivesAMinorityOfNodesCrashing(t *testing.T) {
	p := lookupPattern(t, "redlock")
	s := builtin(t, "steady", p)
	s.Name, s.Duration = "two-nodes-crash", 3*time.Second
	s.Faults = []fault.Fault{
		{Kind: fault.Crash, Target: "n1", When: fault.When{At: 500 * time.Millisecond}},
		{Kind: fault.Crash, Target: "n4", When: fault.When{At: time.Second}, For: time.Second},
	}
	for seed := range uint64(5) {
		r := run(t, p, s, seed)
		if r.Safety.Overlaps != 0 || r.Safety.LostUpdates != 0 || len(r.Violated) != 0 {
			t.Errorf("seed %d: %s\nwant no violation with 2 of 5 nodes down", seed, r.Summary())
		}
		// About 30 acquisitions a simulated second; each node's
		// acquisition is a script, whose first call on a node (and on a
		// restarted one, which lost its script cache) costs a second
		// round trip (NOSCRIPT, then EVAL).
		if r.Liveness.Acquisitions < 90 || len(r.Liveness.Stuck) != 0 {
			t.Errorf("seed %d: %d acquisitions, stuck %v; want the lock to stay usable", seed, r.Liveness.Acquisitions, r.Liveness.Stuck)
		}
	}
}

// TestNodeClockJumpBreaksRedlock: seed 1 is a run in which a node's clock
// jump lets a second client reach a quorum while the first holds the lock.
func TestNodeClockJumpBreaksRedlock(t *testing.T) {
	r := runBuiltin(t, "redlock", "node-clock-jump", 1)
	if !slices.Contains(r.Violated, "mutex") {
		t.Fatalf("%s\nwant a mutual exclusion violation", r.Summary())
	}
	// Without the jump the same split-brain network is safe.
	p := lookupPattern(t, "redlock")
	s := builtin(t, "node-clock-jump", p)
	s.Faults = slices.DeleteFunc(s.Faults, func(f fault.Fault) bool { return f.Kind == fault.Jump })
	if r := run(t, p, s, 1); r.Safety.Overlaps != 0 {
		t.Errorf("without the jump: %s\nwant no overlap", r.Summary())
	}
}

func TestFailoverBreaksTheSingleNodeLock(t *testing.T) {
	r := runBuiltin(t, "basic", "failover-async-replication", 1)
	if !slices.Contains(r.Violated, "mutex") {
		t.Fatalf("%s\nwant a mutual exclusion violation after the failover", r.Summary())
	}
}

// TestRedlockBreaksWhenABareQuorumLosesANode: one node of five losing its
// data is enough when the holder locked exactly three (seed 2: the node
// that comes back empty was one of the holder's three, and another client
// locks it and the two the holder lacked). Seed 3, where the lost node
// did not cost the holder its majority, stays safe (found by search over
// seeds 1..10 once each node's acquisition became a script; 1 no longer
// shows the safe case). This is why Redlock asks for delayed restarts.
func TestRedlockBreaksWhenABareQuorumLosesANode(t *testing.T) {
	for _, scen := range []string{"node-restart-without-persistence", "failover-async-replication"} {
		if r := runBuiltin(t, "redlock", scen, 2); !slices.Contains(r.Violated, "mutex") {
			t.Errorf("%s seed 2: %s\nwant a mutual exclusion violation", scen, r.Summary())
		}
		if r := runBuiltin(t, "redlock", scen, 3); len(r.Violated) != 0 {
			t.Errorf("%s seed 3: %s\nwant no violation", scen, r.Summary())
		}
	}
}

func TestRestartWithoutPersistenceRepeatsFences(t *testing.T) {
	r := runBuiltin(t, "fenced", "node-restart-without-persistence", 1)
	if r.Safety.FenceViolations == 0 || !slices.Contains(r.Violated, "fencing") {
		t.Fatalf("%s\nwant a fence violation: the counter restarted", r.Summary())
	}
}

// TestCorrectPatternsHoldWithoutFaults: the steady scenario is a control;
// a false alarm here would make every other verdict suspect.
func TestCorrectPatternsHoldWithoutFaults(t *testing.T) {
	for _, name := range []string{"basic", "reentrant", "watchdog", "service", "fenced", "redlock"} {
		p := lookupPattern(t, name)
		s := builtin(t, "steady", p)
		s.Duration = 3 * time.Second
		for seed := range uint64(3) {
			r := run(t, p, s, seed)
			if r.Safety.Overlaps+r.Safety.LostUpdates+r.Safety.FenceViolations != 0 || r.Liveness.Acquisitions < 100 {
				t.Errorf("%s seed %d: %s", name, seed, r.Summary())
			}
			if r.Safety.Accepted != r.Safety.Counter {
				t.Errorf("%s seed %d: %d accepted writes but counter %d", name, seed, r.Safety.Accepted, r.Safety.Counter)
			}
		}
	}
}

func TestBadConfigurations(t *testing.T) {
	basic := lookupPattern(t, "basic")
	s := builtin(t, "gc-pause", basic)
	s.Nodes = 3
	if _, err := Run(Config{Pattern: basic, Scenario: s, Seed: 1}); err == nil {
		t.Error("basic with 3 nodes ran; want the pattern's error")
	}
	s = builtin(t, "gc-pause", basic)
	s.Faults = append(s.Faults, fault.Fault{Kind: fault.Crash, Target: "n2"})
	if _, err := Run(Config{Pattern: basic, Scenario: s, Seed: 1}); err == nil {
		t.Error("a crash of n2 with 1 node ran; want a validation error")
	}
	if _, err := Run(Config{Pattern: pattern.Pattern{Name: "none"}, Scenario: s}); err == nil {
		t.Error("a pattern without New ran")
	}
}

func ExampleRun() {
	p, _ := pattern.Lookup("fenced")
	s, _ := scenario.Lookup("gc-pause", p.Nodes)
	res, _ := Run(Config{Pattern: p, Scenario: s, Seed: 1})
	fmt.Println(res.Violated, res.Safety.Overlaps > 0, res.Safety.LostUpdates, res.Safety.StaleRejected > 0)
	// Output: [] true 0 true
}

package realmode

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/locksim/locksim/sim/scenario"
)

// The CI subset: known verdicts reproduced on real redis-servers under
// real faults. A breaking cell must break in at least one of its runs, a
// safe cell in none (real timing varies from run to run).

func scenarioFile(t *testing.T, name string) scenario.Scenario {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := scenario.Parse(f)
	if err != nil {
		t.Fatalf("testdata/%s.txt: %v", name, err)
	}
	return sc
}

type cell struct {
	pattern string
	sc      scenario.Scenario
	runs    int
	breaks  bool
	// only, if set, are the claims the cell compares (the others are
	// judged, logged, and left to tests of their own).
	only []string
}

func (c cell) judge(t *testing.T) {
	broke := 0
	for seed := uint64(1); seed <= uint64(c.runs); seed++ {
		res := runReal(t, testConfig(t, c.pattern, c.sc, seed))
		if err := res.Err(); err != nil {
			t.Fatal(err)
		}
		t.Logf("run %d: %s; %s; %s", seed, res.Summary(), res.LossSummary(), res.StopsSummary(res.TTL))
		for _, v := range res.Violations[:min(len(res.Violations), 3)] {
			t.Logf("  t=%.6fs %s %v: %s", float64(v.At)/1e9, v.Kind, v.Clients, v.Detail)
		}
		if slices.ContainsFunc(res.Violated, func(v string) bool { return c.only == nil || slices.Contains(c.only, v) }) {
			broke++
			if c.breaks {
				break
			}
		}
	}
	switch {
	case c.breaks && broke == 0:
		t.Errorf("%s under %s: none of %d real runs broke; the simulator says it breaks", c.pattern, c.sc.Name, c.runs)
	case !c.breaks && broke > 0:
		t.Errorf("%s under %s: %d of %d real runs broke; the simulator says it holds", c.pattern, c.sc.Name, broke, c.runs)
	}
}

// TestRealPauseBasicBreaksFencedSafe: a real SIGSTOP of the holder past
// its TTL, between its lease check and its write, breaks Basic (overlap,
// lost update); Fenced's checking store rejects the paused holder's write.
func TestRealPauseBasicBreaksFencedSafe(t *testing.T) {
	needRedis(t)
	gc := builtin(t, "gc-pause", 1)
	t.Run("basic", func(t *testing.T) { cell{"basic", gc, 6, true, nil}.judge(t) })
	// Fenced's store claims; its loss-signal bound, 1% of gc-pause's 100ms
	// TTL, is below what a loaded machine's scheduler keeps after a
	// SIGCONT (TestLossSignalJudgedForReal judges the claim with a TTL that
	// leaves room).
	t.Run("fenced", func(t *testing.T) { cell{"fenced", gc, 3, false, []string{"safe-store", "fencing"}}.judge(t) })
}

// TestRealCrashRedlock: Redlock over five real servers survives one
// SIGKILL and restart of a node that keeps its data, and breaks when the
// node restarts empty while clients contend for the quorum.
func TestRealCrashRedlock(t *testing.T) {
	needRedis(t)
	t.Run("persistent", func(t *testing.T) {
		cell{"redlock", scenarioFile(t, "node-restart-with-persistence"), 3, false, nil}.judge(t)
	})
	t.Run("contention", func(t *testing.T) {
		cell{"redlock", scenarioFile(t, "node-restart-contention"), 10, true, nil}.judge(t)
	})
}

// TestRealRestartLongWork: the built-in restart scenario's 5ms outage is
// shorter than a real redis-server restart, so for real the holder has
// usually finished before the node is back; with sections that outlast the
// restart, Basic breaks for real as it does in the simulator.
func TestRealRestartLongWork(t *testing.T) {
	needRedis(t)
	cell{"basic", scenarioFile(t, "node-restart-long-work"), 3, true, nil}.judge(t)
}

package realmode

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// TestLossSignalJudgedForReal: under slow-work (c1 slowed 3 TTLs at its
// write, after its lease check) basic's lease closes Done as its
// validity runs out, no later than the key expires on redis-server: the
// loss is signalled within the bound. The same lock with leases that
// never tell (test-no-signal) learns of it only from its Release's
// refusal, TTLs later: a late signal, the claim broken. Before, real
// mode measured nothing (every field 0) whatever the lock did.
func TestLossSignalJudgedForReal(t *testing.T) {
	needRedis(t)
	for _, c := range []struct {
		pattern string
		late    bool
	}{{"basic", false}, {"test-no-signal", true}} {
		t.Run(c.pattern, func(t *testing.T) {
			// slow-work with a 1s TTL (c1 slowed 3 TTLs at its write): a
			// bound of 10ms, and a validity timer that fires 10ms or more
			// before the key expires, room a loaded machine keeps.
			sc := builtin(t, "slow-work", 1)
			sc.TTL, sc.Duration, sc.Faults[0].For = time.Second, 5*time.Second, 3*time.Second
			res := runReal(t, testConfig(t, c.pattern, sc, 1))
			if err := res.Err(); err != nil {
				t.Fatal(err)
			}
			ls := res.LossSignal
			t.Logf("%s: %+v", c.pattern, ls)
			if ls.Losses == 0 || ls.Bound != sim.LossSignalBound(res.claims(t), sc.TTL) {
				t.Fatalf("%s: loss signal %+v: want c1's loss measured against the simulator's bound", c.pattern, ls)
			}
			broke := slices.Contains(res.Violated, sim.ClaimLossSignal)
			if late := ls.Late > 0; late != c.late || broke != c.late {
				t.Errorf("%s: %d late of %d losses (max %v), violated %v; want late %v", c.pattern, ls.Late, ls.Losses, ls.Max, res.Violated, c.late)
			}
			if c.late && ls.Max < sc.TTL {
				t.Errorf("%s: the largest latency %v, want over a TTL (told only at its Release)", c.pattern, ls.Max)
			}
			if c.late && !slices.ContainsFunc(res.Violations, func(v sim.Violation) bool {
				return v.Kind == "late-signal" && strings.Contains(v.Detail, "Release returned")
			}) {
				t.Errorf("%s: violations %+v, want a late signal told by Release", c.pattern, res.Violations)
			}
		})
	}
}

func (r *Result) claims(t *testing.T) pattern.Claims {
	t.Helper()
	p, err := testLookup(r.Pattern)
	if err != nil {
		t.Fatal(err)
	}
	return p.Claims
}

// TestLossLatenessWaitsForLateStops: a holder's heartbeat gap is reported
// when its heartbeat runs again, which can be after its loss was told.
// The loss is judged at the end of the run, with that gap left out:
// judged when it was told, the 300ms the machine did not run c1 were
// charged to the lock and the loss read late (TestLossSignalJudgedForReal
// failed so beside two CPU hogs).
func TestLossLatenessWaitsForLateStops(t *testing.T) {
	ms := int64(time.Millisecond)
	c := &coord{cfg: Config{Pattern: pattern.Pattern{Name: "basic"}}, state: []*clientState{{name: "c1"}},
		hist: &history.History{}, loss: &lossOracle{quorum: 1, bound: 10 * ms, byID: map[int]*realHolding{}}}
	h := &realHolding{id: 0, client: 0, lost: true, lostAt: 1000 * ms, doneAt: -1, releaseAt: -1}
	c.loss.open, c.loss.byID[0] = []*realHolding{h}, h
	c.signalLoss(h, 1305*ms, "its lease's Done closed")
	c.stalls = append(c.stalls, stall{client: 0, from: 998 * ms, to: 1300 * ms}) // told after the loss
	ls := c.lossResult()
	if ls.Late != 0 || ls.Max != 5*time.Millisecond || len(c.lateSignals) != 0 {
		t.Errorf("loss signal %+v, violations %v: want one loss told 5ms late, its 300ms stop aside", ls, c.lateSignals)
	}
	// Without the stop, the same loss is late.
	c = &coord{cfg: c.cfg, state: c.state, hist: c.hist, loss: &lossOracle{quorum: 1, bound: 10 * ms, byID: map[int]*realHolding{}}}
	h = &realHolding{id: 0, client: 0, lost: true, lostAt: 1000 * ms, doneAt: -1, releaseAt: -1}
	c.loss.open, c.loss.byID[0] = []*realHolding{h}, h
	c.signalLoss(h, 1305*ms, "its lease's Done closed")
	if ls := c.lossResult(); ls.Late != 1 || len(c.lateSignals) != 1 {
		t.Errorf("loss signal %+v: want the 305ms latency late", ls)
	}
}

// TestRestartLossSeenAtRelease: a node that comes back empty between two
// polls and a holder that releases before the next one. The last look,
// made as the holder begins its Release, finds the holding gone since
// the restart: a loss, told only by the Release's refusal (basic's lease
// does not watch its key), so late. Before, the holding was closed as
// released unlost and the run measured no loss at all: real mode read
// 0/5 under node-restart-without-persistence where the simulator reads
// 19/20. The polls are turned off here (lossPoll an hour) so that only
// the look at the Release can see it.
func TestRestartLossSeenAtRelease(t *testing.T) {
	needRedis(t)
	defer func(p time.Duration) { lossPoll = p }(lossPoll)
	lossPoll = time.Hour
	sc := builtin(t, "node-restart-without-persistence", 1)
	// c1 works 300ms inside a 1s TTL: its Release comes long after n1 is
	// back (5ms plus its start), and its lease check passes on its own
	// clock.
	sc.TTL, sc.Duration = time.Second, 2*time.Second
	sc.Workload.Work, sc.Workload.Jitter = 300*time.Millisecond, 0
	res := runReal(t, testConfig(t, "basic", sc, 1))
	if err := res.Err(); err != nil {
		t.Fatal(err)
	}
	ls := res.LossSignal
	t.Logf("loss signal %+v, violated %v", ls, res.Violated)
	if ls.Losses == 0 || ls.Late == 0 || !slices.Contains(res.Violated, sim.ClaimLossSignal) {
		t.Fatalf("loss signal %+v, violated %v: want c1's loss at the restart, told late by its Release", ls, res.Violated)
	}
	if !slices.ContainsFunc(res.Violations, func(v sim.Violation) bool {
		return v.Kind == "late-signal" && strings.Contains(v.Detail, "Release returned")
	}) {
		t.Errorf("violations %+v, want a late signal told by Release", res.Violations)
	}
}

package report

import (
	"slices"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim"
)

// Cell aggregates the runs of one pattern under one scenario.
type Cell struct {
	Pattern  string
	Scenario string
	Seeds    int
	// Violating counts the seeds whose run broke a claim of the pattern,
	// of any kind; FirstSeed is the lowest of them (0 if none) and Violated
	// the claims broken in any run. They list counterexamples and catch
	// broken variants; a verdict, a colour or a curve counts one kind
	// (Kinds).
	Violating int
	FirstSeed uint64
	Violated  []string
	// Kinds count each kind of claim apart (Kind, ClaimKind).
	Kinds [numKinds]KindTally
	// OverlapRuns counts the seeds in which two clients relied on the
	// lock at one instant of true time, whatever the pattern claims.
	OverlapRuns int
	// Overlaps totals the pairs of overlapping critical sections: the
	// double runs, counted as executions, over the seeds.
	Overlaps int
	// Lost updates as run (the store checks the tokens the pattern
	// issues, if any): seeds with at least one, and the total.
	LostRuns, Lost int
	// NoFence is the same seeds with the tokens withheld from the store;
	// nil for patterns that issue none.
	NoFence *Loss
	// FenceRuns counts seeds with a reused or decreasing token; Rejected
	// totals the stale writes the store refused.
	FenceRuns, Rejected int
	// Liveness: acquisitions over simulated time, the median over seeds of
	// each run's p99 acquire wait, seeds with a stuck client.
	Acquisitions int
	SimTime      time.Duration
	P99Wait      time.Duration
	StuckRuns    int
	// Violations counts, over the seeds, the oracle findings of the claims
	// the pattern makes (sim.Result.ClaimViolations, as run and explore
	// count them): the numerator of PerSimHour and PerMillionAcquisitions.
	// Unclaimed counts the findings of the claims it does not make
	// (sim.Result.Unclaimed): shown beside the rates, never in them.
	Violations, Unclaimed int
	// Unfired counts the seeds in which some fault of the scenario never
	// fired (its trigger point was not reached): a clean seed of those says
	// nothing about the fault.
	Unfired int
	// ExcessRuns counts the seeds with more holders at once than the
	// pattern's limit (a semaphore's N), StallRuns those in which the lock
	// stayed free past the progress bound, whatever the pattern claims.
	ExcessRuns, StallRuns int
	// FirstOf is, per oracle finding (the Finding constants), the lowest
	// seed that had it: the seed a replay command names.
	FirstOf map[string]uint64
	// Refused is, for a production cell, the pattern's refusal of the
	// scenario's options (the scenario asks for what the pattern cannot
	// do, e.g. WAIT for replicas); its seeds did not run.
	Refused string
	// Viz is the counterexample's visualisation, relative to the report
	// (empty until written), and VizVerdict the checker's verdict on it.
	Viz        string
	VizVerdict string

	p99s  []time.Duration
	first *history.History // the run of FirstSeed
}

// Loss counts lost updates over a cell's seeds.
type Loss struct {
	Runs  int // seeds with at least one lost update
	Total int
}

// Rate is the violation rate: violating seeds / seeds.
func (c *Cell) Rate() float64 {
	if c.Seeds == 0 {
		return 0
	}
	return float64(c.Violating) / float64(c.Seeds)
}

// AcqPerSec is the acquisitions per simulated second over all seeds.
func (c *Cell) AcqPerSec() float64 {
	if c.SimTime <= 0 {
		return 0
	}
	return float64(c.Acquisitions) / c.SimTime.Seconds()
}

// add folds one run in. Runs arrive in any order of seeds: every field is
// a sum, a set, a minimum or a list sorted in finish.
func (c *Cell) add(r *sim.Result, noFence bool) {
	if noFence {
		if c.NoFence == nil {
			c.NoFence = &Loss{}
		}
		c.NoFence.Total += r.Safety.LostUpdates
		if r.Safety.LostUpdates > 0 {
			c.NoFence.Runs++
			c.firstOf(FindingLostNoFence, r.Seed)
		}
		return
	}
	c.Seeds++
	if len(r.Violated) > 0 {
		c.Violating++
		c.Violated = append(c.Violated, r.Violated...)
		if c.FirstSeed == 0 || r.Seed < c.FirstSeed {
			c.FirstSeed, c.first = r.Seed, r.History
		}
	}
	c.OverlapRuns += btoi(r.Safety.Overlaps > 0)
	c.Overlaps += r.Safety.Overlaps
	c.LostRuns += btoi(r.Safety.LostUpdates > 0)
	c.Lost += r.Safety.LostUpdates
	c.FenceRuns += btoi(r.Safety.FenceViolations > 0)
	c.Rejected += r.Safety.StaleRejected
	c.Acquisitions += r.Liveness.Acquisitions
	c.SimTime += r.Stats.SimTime
	c.StuckRuns += btoi(len(r.Liveness.Stuck) > 0)
	c.Violations += r.ClaimViolations()
	c.addKinds(r)
	for _, f := range r.Unclaimed() {
		c.Unclaimed += f.Count
	}
	c.ExcessRuns += btoi(r.Safety.Excess > 0)
	c.StallRuns += btoi(r.Liveness.Stalled())
	for _, f := range []struct {
		name string
		had  bool
	}{{FindingOverlap, r.Safety.Overlaps > 0}, {FindingLost, r.Safety.LostUpdates > 0}, {FindingExcess, r.Safety.Excess > 0}, {FindingStall, r.Liveness.Stalled()}} {
		if f.had {
			c.firstOf(f.name, r.Seed)
		}
	}
	c.Unfired += btoi(!allFired(r))
	c.p99s = append(c.p99s, r.Liveness.WaitP99)
}

// The oracle findings whose lowest seed a cell keeps (Cell.FirstOf).
const (
	FindingOverlap     = "overlap"       // two clients relied on the lock at once
	FindingLost        = "lost"          // a lost update, tokens checked where issued
	FindingLostNoFence = "lost-no-fence" // a lost update, tokens withheld
	FindingExcess      = "excess"        // more holders than the limit
	FindingStall       = "stall"         // the lock free past the progress bound
)

func (c *Cell) firstOf(f string, seed uint64) {
	if c.FirstOf == nil {
		c.FirstOf = map[string]uint64{}
	}
	if s, ok := c.FirstOf[f]; !ok || seed < s {
		c.FirstOf[f] = seed
	}
}

// finish sorts what add collected.
func (c *Cell) finish() {
	slices.Sort(c.Violated)
	c.Violated = slices.Compact(c.Violated)
	for k := range c.Kinds {
		t := &c.Kinds[k]
		slices.Sort(t.Violated)
		t.Violated = slices.Compact(t.Violated)
	}
	slices.Sort(c.p99s)
	if n := len(c.p99s); n > 0 {
		c.P99Wait = c.p99s[(n-1)/2]
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

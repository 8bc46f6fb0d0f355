package explore

import (
	"fmt"
	"slices"
)

// checkCounts checks that a report's counts add up for the shards it
// holds: each cell ran exactly its seeds of those shards, and no count of
// runs exceeds the runs made. A report edited by hand, or cut short, is
// refused.
func checkCounts(r *Report) error {
	for i, c := range r.Cells {
		if err := c.checkCounts(r.Shard); err != nil {
			return fmt.Errorf("cell %d (%s under %s): %w", i+1, c.Pattern, c.Scenario, err)
		}
	}
	return nil
}

func (c CellResult) checkCounts(set *ShardSet) error {
	want := c.runsIn(set)
	if c.Runs != want {
		return fmt.Errorf("runs %d, but seeds %s in shards %s are %d", c.Runs, seedRange(c.Seeds), shardsOf(set), want)
	}
	for _, n := range []struct {
		name string
		v    int
	}{{"violating_runs", c.ViolatingRuns}, {"errors", c.Errors}} {
		if n.v < 0 || n.v > c.Runs {
			return fmt.Errorf("%s %d, want 0..%d (the runs)", n.name, n.v, c.Runs)
		}
	}
	for name, f := range c.Broke {
		if f.Runs < 0 || f.Runs > c.Runs {
			return fmt.Errorf("broke %s in %d runs, want 0..%d (the runs)", name, f.Runs, c.Runs)
		}
	}
	for _, f := range c.Faults {
		if f.Fired < 0 || f.Missed < 0 || f.Fired+f.Missed > c.Runs-c.Errors {
			return fmt.Errorf("fault %q fired in %d and missed in %d runs, more than the %d completed", f.Fault, f.Fired, f.Missed, c.Runs-c.Errors)
		}
	}
	return c.checkSeeds(set)
}

// checkSeeds checks that every seed the cell names is one of its runs.
func (c CellResult) checkSeeds(set *ShardSet) error {
	seeds := map[string]*uint64{"first_violating_seed": c.FirstViolated, "first_error_seed": c.FirstErrorSeed}
	for name, f := range c.Broke {
		seeds["first_seed of "+name] = f.FirstSeed
	}
	for _, f := range c.Faults {
		seeds["first_missed_seed of "+f.Fault] = f.FirstMissed
	}
	for name, s := range seeds {
		if s != nil && !c.holdsSeed(set, *s) {
			return fmt.Errorf("%s %d is not one of the seeds %s in shards %s", name, *s, seedRange(c.Seeds), shardsOf(set))
		}
	}
	return nil
}

// runsIn counts the cell's seeds in the shards of set (nil: every seed).
func (c CellResult) runsIn(set *ShardSet) int {
	if set == nil {
		return c.Seeds.Count
	}
	n := 0
	for _, i := range set.Have {
		_, k := Shard{I: i, N: set.N}.span(c.Seeds)
		n += k
	}
	return n
}

func (c CellResult) holdsSeed(set *ShardSet, s uint64) bool {
	if s < c.Seeds.Start || s-c.Seeds.Start >= uint64(c.Seeds.Count) {
		return false
	}
	return set == nil || set.N <= 1 || slices.Contains(set.Have, int(s%uint64(set.N)))
}

func shardsOf(set *ShardSet) string {
	if set == nil {
		return "all"
	}
	return fmt.Sprintf("%s of %d", joinInts(set.Have), set.N)
}

package explore

import (
	"fmt"
	"maps"
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
	if err := c.checkSeeds(set); err != nil {
		return err
	}
	if err := c.checkViolations(); err != nil {
		return err
	}
	return c.checkDerived()
}

// checkViolations checks that the cell's figures agree with each other as
// a run's tally makes them: a run that broke a claim is a violating run
// (a liveness property, which the oracles judge apart, is not counted
// here), a violating run is a completed one, and a first seed is named
// exactly when something was found.
func (c CellResult) checkViolations() error {
	if c.ViolatingRuns+c.Errors > c.Runs {
		return fmt.Errorf("violating_runs %d and errors %d, more than the %d runs (a run that errs violates nothing)", c.ViolatingRuns, c.Errors, c.Runs)
	}
	if (c.ViolatingRuns > 0) != (c.FirstViolated != nil) {
		return fmt.Errorf("violating_runs %d with first_violating_seed %s", c.ViolatingRuns, seedOrNone(c.FirstViolated))
	}
	if (c.Errors > 0) != (c.FirstErrorSeed != nil) {
		return fmt.Errorf("errors %d with first_error_seed %s", c.Errors, seedOrNone(c.FirstErrorSeed))
	}
	for _, name := range slices.Sorted(maps.Keys(c.Broke)) {
		f := c.Broke[name]
		if (f.Runs > 0) != (f.FirstSeed != nil) {
			return fmt.Errorf("broke %s in %d runs with first_seed %s", name, f.Runs, seedOrNone(f.FirstSeed))
		}
		if name == Progress || name == NoStarvation {
			continue
		}
		if f.Runs > c.ViolatingRuns {
			return fmt.Errorf("broke %s in %d runs, but violating_runs is %d", name, f.Runs, c.ViolatingRuns)
		}
		if f.FirstSeed != nil && *f.FirstSeed < *c.FirstViolated {
			return fmt.Errorf("broke %s first at seed %d, before first_violating_seed %d", name, *f.FirstSeed, *c.FirstViolated)
		}
	}
	return nil
}

// checkDerived checks that the figures derived from the tally (rates,
// means, the replay command) are the ones the tally gives.
func (c CellResult) checkDerived() error {
	r := Report{Cells: []CellResult{c}}
	r.finish()
	d := r.Cells[0]
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"acquisitions_per_run", c.AcquisitionsPerRun, d.AcquisitionsPerRun},
		{"wait_mean_ns", c.WaitMeanNs, d.WaitMeanNs},
		{"violations_per_sim_hour", c.ViolationsPerSimHour, d.ViolationsPerSimHour},
		{"violations_per_million_acquisitions", c.ViolationsPerMillionAcquisitions, d.ViolationsPerMillionAcquisitions},
		{"replay", c.Replay, d.Replay},
	} {
		if f.got != f.want {
			return fmt.Errorf("%s %v, but the cell's counts give %v", f.name, f.got, f.want)
		}
	}
	return nil
}

func seedOrNone(s *uint64) string {
	if s == nil {
		return "absent"
	}
	return fmt.Sprint(*s)
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

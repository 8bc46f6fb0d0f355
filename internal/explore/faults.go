package explore

import (
	"fmt"
	"slices"

	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// FaultCount is how often one fault of a cell's scenario fired: a cell
// whose runs never saw a fault fire did not test that fault.
type FaultCount struct {
	// Fault is the fault as the scenario file writes it.
	Fault string `json:"fault"`
	// Fired counts the completed runs in which it fired.
	Fired int `json:"fired_runs"`
	// Missed counts the completed runs in which it did not fire.
	Missed int `json:"missed_runs"`
	// FirstMissed is the lowest seed in which it did not fire, and Why
	// what that run says of it ("the run ends at 1s").
	FirstMissed *uint64 `json:"first_missed_seed,omitempty"`
	Why         string  `json:"why,omitempty"`
}

// faultCounts is a zero count for every fault of sc.
func faultCounts(sc scenario.Scenario) []FaultCount {
	out := make([]FaultCount, len(sc.Faults))
	for i, f := range sc.Faults {
		out[i].Fault = scenario.FormatFault(f)
	}
	return out
}

// faultsOfRun counts the faults of one completed run.
func faultsOfRun(seed uint64, r *sim.Result) []FaultCount {
	if len(r.Faults) > 0 && r.Faults[0].Of > 0 {
		return linesOfRun(seed, r)
	}
	out := make([]FaultCount, len(r.Faults))
	for i, f := range r.Faults {
		out[i].Fault = f.Fault
		if f.Fired {
			out[i].Fired = 1
			continue
		}
		out[i].Missed, out[i].FirstMissed, out[i].Why = 1, &seed, f.Why
	}
	return out
}

// linesOfRun counts the faults of a run whose scenario has schedules by
// the scenario's fault lines (FaultFiring.Of): a schedule counts as fired
// when any of its occurrences fired, else as missed with the first one's
// reason (or that it drew none).
func linesOfRun(seed uint64, r *sim.Result) []FaultCount {
	var out []FaultCount
	for _, f := range r.Faults {
		for len(out) < f.Of {
			out = append(out, FaultCount{})
		}
		c := &out[f.Of-1]
		if c.Fault == "" {
			c.Fault = f.Fault
			if f.Schedule != "" {
				c.Fault = f.Schedule
			}
		}
		switch {
		case f.Fired:
			c.Fired, c.Missed, c.FirstMissed, c.Why = 1, 0, nil, ""
		case c.Fired == 0 && c.Missed == 0:
			c.Missed, c.FirstMissed, c.Why = 1, &seed, f.Why
		}
	}
	return out
}

// addFaults adds u's fault counts to t's, fault by fault.
func addFaults(t, u []FaultCount) []FaultCount {
	if len(t) == 0 {
		return slices.Clone(u)
	}
	for i := range min(len(t), len(u)) {
		t[i].Fired += u[i].Fired
		t[i].Missed += u[i].Missed
		if first := minSeed(t[i].FirstMissed, u[i].FirstMissed); first != t[i].FirstMissed {
			t[i].FirstMissed, t[i].Why = first, u[i].Why
		}
	}
	return t
}

// sameFaults reports whether two cells list the same faults.
func sameFaults(a, b []FaultCount) bool {
	return slices.EqualFunc(a, b, func(x, y FaultCount) bool { return x.Fault == y.Fault })
}

// NeverFired returns the faults of the cell that fired in none of its
// completed runs (none, when no run completed).
func (c CellResult) NeverFired() []FaultCount {
	var out []FaultCount
	for _, f := range c.Faults {
		if f.Fired == 0 && f.Missed > 0 {
			out = append(out, f)
		}
	}
	return out
}

// missedLines says, for every fault of the cell that did not fire in some
// completed run, in how many and why (in its lowest such seed).
func (c CellResult) missedLines() []string {
	var lines []string
	for _, f := range c.Faults {
		if f.Missed == 0 {
			continue
		}
		lines = append(lines, fmt.Sprintf("FAULT NOT FIRED %s under %s: %s did not fire in %d of %d runs; seed %d: %s",
			c.Pattern, c.Scenario, f.Fault, f.Missed, f.Fired+f.Missed, *f.FirstMissed, f.Why))
	}
	return lines
}

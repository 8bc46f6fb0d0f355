package scenario

import (
	"fmt"
	"strconv"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// MaxFaults bounds the fault occurrences of one run: the plain fault
// lines and everything the schedules draw, over every target, added up.
// Validate counts them from the file before anything runs (see
// Occurrences), so that a short gap on many clients is refused instead of
// filling memory: each occurrence costs the simulator a fault, at most
// two events (its start and its end) and a firing record, a few hundred
// bytes in all, so the faults of a run stay under about 100 MiB.
const MaxFaults = 100_000

// minGap is the shortest gap the simulator draws between two occurrences
// of a schedule (a drawn gap is rounded up to it).
const minGap = time.Microsecond

// Occurrences is the number of occurrences fault line f stands for in a
// run of s, counted from the file: 1 for a plain fault; for a schedule,
// its targets (every client for c*, every node for n*) times the
// occurrences on each. A gap given as a value makes that count an upper
// bound: every= after at= and again after each occurrence's for=, within
// the duration. A drawn gap (exp(D), uniform(D)) counts its mean D and no
// time for a drawn for=: the number the draws come to on average, which
// the simulator lets them pass by at most MaxFaults in all (see sim).
// nodes is the run's node count (s.Nodes, or the pattern's when s leaves
// it open; 1 if not yet known).
func (s Scenario) Occurrences(f fault.Fault, nodes int) int64 {
	if !f.IsSchedule() {
		return 1
	}
	targets := int64(1)
	switch f.Target {
	case fault.AllClients:
		targets = int64(s.Clients)
	case fault.AllNodes:
		targets = int64(max(nodes, 1))
	}
	return targets * perTarget(f, s.Duration)
}

// perTarget is the occurrences schedule f draws on one target in a run
// of length d (see Occurrences).
func perTarget(f fault.Fault, d time.Duration) int64 {
	if f.Sched.Every <= 0 {
		return 1
	}
	left := d - f.When.At
	if left <= 0 {
		return 0
	}
	// each part of the period clamped to d, so that for=2000000h cannot
	// overflow it: one such part already leaves one occurrence at most
	period := min(max(f.Sched.Every, minGap), d)
	if f.Sched.ForDist == fault.Fixed && f.For > 0 {
		period += min(f.For, d)
	}
	return int64(left/period) + 1
}

// validateBounds refuses a scenario whose fault lines stand for more than
// MaxFaults occurrences, naming the line that goes over the limit with
// its own count and the total up to it.
func (s Scenario) validateBounds(nodes int) error {
	var total int64
	for i, f := range s.Faults {
		n := s.Occurrences(f, nodes)
		total += n
		if total <= MaxFaults {
			continue
		}
		if n > MaxFaults {
			return s.faultErr(i, fmt.Errorf("%s: %s fault occurrences, over the limit of %s in a run (%s; make every= longer, or name fewer targets)",
				boundField(f), thousands(n), thousands(MaxFaults), s.countText(f, nodes)))
		}
		return s.faultErr(i, fmt.Errorf("the fault lines up to this one stand for %s fault occurrences (this one %s), over the limit of %s in a run",
			thousands(total), thousands(n), thousands(MaxFaults)))
	}
	return nil
}

// boundField names the field that makes a schedule count: every= when it
// repeats, else its wildcard target.
func boundField(f fault.Fault) string {
	if f.Sched.Every > 0 {
		return "field every"
	}
	return "field target"
}

// countText says how Occurrences counted f: targets × per target in the
// duration.
func (s Scenario) countText(f fault.Fault, nodes int) string {
	per := perTarget(f, s.Duration)
	targets := s.Occurrences(f, nodes) / max(per, 1)
	how := "at most"
	if f.Sched.EveryDist != fault.Fixed {
		how = "on average"
	}
	return fmt.Sprintf("%s targets × %s %s each in %v", thousands(targets), how, thousands(per), s.Duration)
}

// thousands writes n with a comma between groups of three digits.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

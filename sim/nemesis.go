package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// MaxDrawnFaults caps the fault occurrences a run's schedules may draw in
// all, with the plain faults: twice scenario.MaxFaults, the count
// Validate holds a file to before the run. A gap given as a value never
// draws more than that count; a drawn gap (exp(D), uniform(D)) is
// counted by its mean, and its draws pass twice that only by a chance too
// small to meet (a Poisson count at twice its mean of thousands), so
// reaching the cap is an error of the run (ErrCap), not of the file.
const MaxDrawnFaults = 2 * scenario.MaxFaults

// origin is the scenario fault line a fault of the run comes from: its
// text and its 1-based position among the scenario's faults.
type origin struct {
	text string // the schedule's text, or "" for a fault given as it is
	of   int
}

// expansion is what expandSchedules did: the origin of every fault of the
// expanded scenario, and the schedules that drew no occurrence at all.
type expansion struct {
	from  []origin
	empty []origin
}

// expandSchedules returns sc with each schedule (fault.Fault.IsSchedule)
// replaced by its occurrences: plain faults at drawn true times with drawn
// durations, steps and rates, for every target the schedule names. Each
// schedule and target draws from its own PCG stream, keyed by the
// schedule's text (and how many identical lines precede it) rather than
// its position, so adding, removing or reordering other faults does not
// shift its draws. A scenario without schedules is returned as it is,
// with a nil expansion.
func expandSchedules(sc scenario.Scenario, seed uint64) (scenario.Scenario, *expansion, error) {
	if !hasSchedule(sc.Faults) {
		return sc, nil, nil
	}
	var out []fault.Fault
	x := &expansion{}
	seen := map[string]int{}
	for pos, f := range sc.Faults {
		if !f.IsSchedule() {
			out, x.from = append(out, f), append(x.from, origin{of: pos + 1})
			continue
		}
		text := scenario.FormatFault(f)
		seen[text]++
		o := origin{text: text, of: pos + 1}
		drawn := 0
		for i, tgt := range f.Targets(sc.Nodes, sc.Clients) {
			rng := stream(seed, fmt.Sprintf("nemesis %d %s", seen[text], text), i)
			occ, err := occurrences(f, tgt, sc.Duration, rng, MaxDrawnFaults-len(out))
			if err != nil {
				return sc, nil, fmt.Errorf("schedule %q: %w", text, err)
			}
			out, drawn = append(out, occ...), drawn+len(occ)
			for range occ {
				x.from = append(x.from, o)
			}
		}
		if drawn == 0 {
			x.empty = append(x.empty, o)
		}
	}
	sc.Faults = out
	return sc, x, nil
}

func hasSchedule(fs []fault.Fault) bool {
	for _, f := range fs {
		if f.IsSchedule() {
			return true
		}
	}
	return false
}

// occurrences draws one schedule's faults on target tgt over a run of
// length d: one at at= without every=, else one after every gap, the
// next gap counted from the end of the previous occurrence. left is how
// many more the run may draw (see MaxDrawnFaults).
func occurrences(f fault.Fault, tgt string, d time.Duration, rng *rand.Rand, left int) ([]fault.Fault, error) {
	s := f.Sched
	t := f.When.At
	if s.Every == 0 {
		if left < 1 {
			return nil, fmt.Errorf("%w: its memory cap of %d fault occurrences, on %s (name fewer targets)", ErrCap, MaxDrawnFaults, tgt)
		}
		return []fault.Fault{occurrence(f, tgt, t, rng)}, nil
	}
	var out []fault.Fault
	for {
		gap := atLeast(drawDur(rng, s.EveryDist, s.Every), time.Microsecond)
		if gap >= d-t { // compared so, a gap or an at= near the largest duration cannot wrap t
			return out, nil
		}
		t += gap
		if len(out) >= left {
			return nil, fmt.Errorf("%w: its memory cap of %d fault occurrences, drawing on %s by t=%v of %v (make every= longer)", ErrCap, MaxDrawnFaults, tgt, t, d)
		}
		g := occurrence(f, tgt, t, rng)
		out = append(out, g)
		if g.For >= d-t {
			return out, nil
		}
		t += g.For
	}
}

// occurrence is one fault of schedule f on tgt at true time t, its drawn
// quantities taken from rng in a fixed order (for, by, rate).
func occurrence(f fault.Fault, tgt string, t time.Duration, rng *rand.Rand) fault.Fault {
	s := f.Sched
	g := f
	g.Sched, g.Target, g.When = fault.Schedule{}, tgt, fault.When{At: t}
	if s.ForDist != fault.Fixed {
		g.For = atLeast(drawDur(rng, s.ForDist, f.For), time.Microsecond)
	}
	if s.ByDist != fault.Fixed {
		g.By = drawDur(rng, s.ByDist, f.By)
		if g.By == 0 { // a jump must step
			g.By = time.Microsecond
		}
	}
	if s.RateDist != fault.Fixed {
		g.PPM = draw(rng, s.RateDist, f.PPM)
	}
	return g
}

// drawDur draws a duration around v under dist, to the microsecond, so
// that an occurrence's fault line stays readable.
func drawDur(rng *rand.Rand, dist fault.Dist, v time.Duration) time.Duration {
	return time.Duration(draw(rng, dist, int64(v))).Round(time.Microsecond)
}

// draw draws a value around v under dist: exp with mean v, uniform on
// [0, 2v] (or [2v, 0] for a negative v), spread on [-|v|, +|v|].
func draw(rng *rand.Rand, dist fault.Dist, v int64) int64 {
	neg := v < 0
	if neg {
		v = -v
	}
	v = min(v, maxDrawn) // so that 2v+1 and the exp draw stay in range
	var x int64
	switch dist {
	case fault.Exp:
		x = int64(min(rng.ExpFloat64()*float64(v), 2*maxDrawn))
	case fault.Uniform:
		x = rng.Int64N(2*v + 1)
	case fault.Spread:
		return rng.Int64N(2*v+1) - v
	default:
		x = v
	}
	if neg {
		return -x
	}
	return x
}

// maxDrawn bounds the value a draw is made around (about 1,281,023h:
// far beyond the longest run), so that no draw overflows.
const maxDrawn = math.MaxInt64 / 4

// atLeast is d, or min when d is shorter.
func atLeast(d, min time.Duration) time.Duration { return max(d, min) }

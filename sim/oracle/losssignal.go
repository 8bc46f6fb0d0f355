package oracle

import (
	"cmp"
	"slices"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
)

// What the loss-signal oracle (loss.go) measures, the bound a pattern's
// claim sets on it, and the pauses it leaves out.

// LossSignal is what the loss-signal oracle measured in a run.
type LossSignal struct {
	// Losses counts the holdings whose lock the server let go before the
	// holder released it; Signalled those of them the holder learnt of.
	Losses    int `json:"losses"`
	Signalled int `json:"signalled"`
	// Blind counts the losses the holder acted on (checked its lease,
	// read or wrote the store) before learning of them.
	Blind int `json:"blind"`
	// Late counts the losses signalled later than Bound, or not at all
	// within Bound by the end of the run (only under a LossSignal claim).
	Late int `json:"late"`
	// Max and P99 are the largest and 99th-percentile latencies, true
	// time from the loss to its signal (to the run's end or the release
	// for a loss never signalled).
	Max time.Duration `json:"max_ns"`
	P99 time.Duration `json:"p99_ns"`
	// Bound is the pattern's claim in true time (0: no claim).
	Bound time.Duration `json:"bound_ns"`
	// Untracked counts the holdings the oracle could not find on a
	// quorum of the nodes at their grant (a grant whose key had already
	// expired or was lost in flight, a lock kept under keys its pattern's
	// Holding does not name): they are not measured.
	Untracked int `json:"untracked"`
}

// LossSignalBound is the loss-signal latency a pattern with claims c
// promises under a scenario's TTL: c.LossSignal percent of it (0: no
// claim).
func LossSignalBound(c pattern.Claims, ttl time.Duration) time.Duration {
	return time.Duration(int64(c.LossSignal) * int64(ttl) / 100)
}

// PausedWithin is how long, within [from, to], the process of the client
// named client was paused: the union of the stretches of its pause
// faults among events. The loss-signal oracles of the simulator and of
// real mode leave it out of a holder's latency.
func PausedWithin(events []history.Event, client string, from, to int64) int64 {
	var spans [][2]int64
	for _, ev := range events {
		if ev.Kind == string(fault.Pause) && ev.Target == client {
			if lo, hi := max(ev.At, from), min(ev.End, to); lo < hi {
				spans = append(spans, [2]int64{lo, hi})
			}
		}
	}
	slices.SortFunc(spans, func(a, b [2]int64) int { return cmp.Compare(a[0], b[0]) })
	total, reach := int64(0), from
	for _, s := range spans {
		lo := max(s[0], reach)
		if s[1] > lo {
			total += s[1] - lo
			reach = s[1]
		}
	}
	return total
}

package sim

import (
	"testing"

	"github.com/locksim/locksim/history"
)

// queueJumps counts pairs of granted acquisitions in which one was called
// more than margin ns after the other and granted before it: a later
// arrival served first.
func queueJumps(h *history.History, margin int64) int {
	type acq struct{ call, ret int64 }
	var as []acq
	for _, op := range h.Ops {
		if op.Kind == history.Acquire && op.OK && !op.Unknown() {
			as = append(as, acq{op.Call, op.Return})
		}
	}
	n := 0
	for _, a := range as {
		for _, b := range as {
			if b.call > a.call+margin && b.ret < a.ret {
				n++
			}
		}
	}
	return n
}

// Under client-clock-jump the seed's fair lock, which orders its queue by
// client wall clocks, serves later arrivals first; the fair lock, ordered
// by server tickets, does not. Neither breaks mutual exclusion there.
func TestFairOrderUnderClientClockJump(t *testing.T) {
	const seeds, margin = 5, 5_000_000 // 5ms: well above one round trip
	jumps := map[string]int{}
	for _, name := range []string{"fair", "fair-clock-queue"} {
		p := lookupPattern(t, name)
		s := builtin(t, "client-clock-jump", p)
		for seed := uint64(1); seed <= seeds; seed++ {
			r := run(t, p, s, seed)
			if len(r.Violated) > 0 {
				t.Errorf("%s seed %d: %s", name, seed, r.Summary())
			}
			jumps[name] += queueJumps(r.History, margin)
		}
	}
	if jumps["fair"] != 0 {
		t.Errorf("fair: %d queue jumps over %d seeds", jumps["fair"], seeds)
	}
	if jumps["fair-clock-queue"] == 0 {
		t.Errorf("fair-clock-queue: no queue jump over %d seeds", seeds)
	}
	t.Logf("queue jumps over %d seeds: fair %d, fair-clock-queue %d", seeds, jumps["fair"], jumps["fair-clock-queue"])
}

package simprop

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/locksim/locksim/history"
)

// The checks that the simulator's oracles do not make, computed from a
// run's history: read-write exclusion, the holder bound of a semaphore and
// first-come-first-served order. They judge each client by what it sent:
// a lease is held from the instant its Acquire returned to the last
// instant its holder sent a request to the store under it. That is a
// shorter interval than the simulator's own (which ends when the last
// request arrives), so these checks can only be more lenient than the
// mutual-exclusion oracle, never raise an alarm it would not.

// holding is one granted lease as the history shows it.
type holding struct {
	client     int
	n          int   // the client's n-th Acquire (from 1)
	call       int64 // when its Acquire was called
	start, end int64 // half-open [start, end): grant to last request sent (at least 1ns)
	read       bool  // a read (shared) holding
}

// holdings rebuilds the leases of h. A read holding is one whose Acquire
// the history marks history.ModeRead. A client that takes the lock again
// while holding it (a nested entry) extends its outer holding, which ends
// when the client has released as many times as it entered.
func holdings(h *history.History) []holding {
	var out []holding
	acquires := map[int]int{}
	current := map[int]int{} // client → index in out of its holding in use
	depth := map[int]int{}   // client → entries not yet released
	for _, op := range h.Ops {
		c := op.Client
		switch op.Kind {
		case history.Acquire:
			acquires[c]++
			if !op.OK || op.Unknown() {
				continue
			}
			if depth[c]++; depth[c] == 1 {
				out = append(out, holding{client: c, n: acquires[c], call: op.Call, start: op.Return,
					end: op.Return + 1, read: op.Mode == history.ModeRead})
				current[c] = len(out) - 1
			}
		case history.Read, history.Write:
			if depth[c] > 0 {
				i := current[c]
				out[i].end = max(out[i].end, op.Call+1)
			}
		case history.Release:
			depth[c] = max(depth[c]-1, 0)
		}
	}
	return out
}

func overlap(a, b holding) bool { return a.start < b.end && b.start < a.end }

func (x holding) String() string {
	mode := "write"
	if x.read {
		mode = "read"
	}
	return fmt.Sprintf("c%d's %s lease (acquisition %d, t=%s–%s)", x.client, mode, x.n, fmtT(x.start), fmtT(x.end))
}

func fmtT(ns int64) string { return fmt.Sprintf("%.6fs", time.Duration(ns).Seconds()) }

// writerExclusion reports a write lease that overlaps another client's
// lease, read or write: "" if none.
func writerExclusion(hs []holding) string {
	for i, w := range hs {
		if w.read {
			continue
		}
		for j, x := range hs {
			if i != j && x.client != w.client && overlap(w, x) {
				return fmt.Sprintf("%v overlaps %v", w, x)
			}
		}
	}
	return ""
}

// holderBound reports the first instant at which more than n leases are
// held at once: "" if never.
func holderBound(hs []holding, n int) string {
	type edge struct {
		at    int64
		delta int // +1 grant, -1 end; ends sort first at a tie (half-open)
		i     int
	}
	var edges []edge
	for i, x := range hs {
		edges = append(edges, edge{x.start, +1, i}, edge{x.end, -1, i})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return a.delta - b.delta
	})
	held := map[int]bool{}
	for _, e := range edges {
		if e.delta < 0 {
			delete(held, e.i)
			continue
		}
		held[e.i] = true
		if len(held) > n {
			return fmt.Sprintf("%d leases held at t=%s, at most %d: %s", len(held), fmtT(e.at), n, describe(hs, held))
		}
	}
	return ""
}

func describe(hs []holding, set map[int]bool) string {
	var idx []int
	for i := range set {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	s := ""
	for k, i := range idx {
		if k > 0 {
			s += "; "
		}
		s += hs[i].String()
	}
	return s
}

// queueJump reports a client granted ahead of another that had called
// Acquire more than margin earlier and was granted later in the same run
// (both calls successful): "" if none. margin covers the one-way latency,
// within which two calls may reach the server in either order.
func queueJump(hs []holding, margin time.Duration) string {
	for _, a := range hs {
		for _, b := range hs {
			if b.client != a.client && b.call > a.call+int64(margin) && b.start < a.start {
				return fmt.Sprintf("c%d called Acquire at t=%s and was granted at t=%s, but c%d, which called at t=%s, was granted first at t=%s",
					a.client, fmtT(a.call), fmtT(a.start), b.client, fmtT(b.call), fmtT(b.start))
			}
		}
	}
	return ""
}

package oracle

import (
	"fmt"
	"sort"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// Counting holders (a semaphore's claim). Under a MaxHolders claim two
// overlapping sections are legitimate; what is not is an instant of true
// time at which more than limit clients rely on their leases. Sections only
// grow at their end, and always up to now, so each extension of a section
// is checked once, over the stretch of true time it newly covers: the
// other sections open in that stretch are swept, and the largest number of
// distinct clients holding at one instant (sections are open intervals,
// as in the pairwise check) plus this one is the holder count there.

// edge is one end of another section's stretch inside the window.
type edge struct {
	at     int64
	client int
	open   bool
}

// countHolders checks h, which has just grown from from to h.end.
func (o *SafetyOracle) countHolders(h *holding, from int64, what string) {
	var edges []edge
	for j := len(o.leases) - 1; j >= 0; j-- {
		y := o.leases[j]
		if y.start+o.maxLen <= h.start {
			break // y and every earlier section ended before h began
		}
		lo, hi := max(y.start, from), min(y.end, h.end)
		if y.client == h.client || lo >= hi {
			continue
		}
		edges = append(edges, edge{lo, y.client, true}, edge{hi, y.client, false})
	}
	peak, who := peakHolders(edges)
	o.safety.PeakHolders = max(o.safety.PeakHolders, peak+1)
	if peak+1 <= o.limit || h.excess {
		return
	}
	h.excess = true
	o.safety.Excess++
	clients := append([]int{h.client}, who...)
	names := make([]string, len(who))
	for i, c := range who {
		names[i] = o.v.Name(c)
	}
	o.log.Violate(pattern.FindingHolders, clients, fmt.Sprintf("%s relied on its lease (%s) while %s also held it: %d holders, at most %d allowed",
		o.v.Name(h.client), what, strings.Join(names, ","), peak+1, o.limit))
}

// peakHolders sweeps edges and returns the largest number of distinct
// clients open at one instant, and those clients (sorted) at the first
// instant that number is reached. At one instant, ends come before
// starts: sections that only touch do not overlap.
func peakHolders(edges []edge) (int, []int) {
	sort.Slice(edges, func(i, j int) bool {
		a, b := edges[i], edges[j]
		if a.at != b.at {
			return a.at < b.at
		}
		if a.open != b.open {
			return !a.open
		}
		return a.client < b.client
	})
	open := map[int]int{}
	peak := 0
	var who []int
	for _, e := range edges {
		if !e.open {
			if open[e.client]--; open[e.client] == 0 {
				delete(open, e.client)
			}
			continue
		}
		open[e.client]++
		if len(open) > peak {
			peak = len(open)
			who = who[:0]
			for c := range open {
				who = append(who, c)
			}
			sort.Ints(who)
		}
	}
	return peak, who
}

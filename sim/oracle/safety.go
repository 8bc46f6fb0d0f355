package oracle

import (
	"fmt"
	"sort"

	"github.com/locksim/locksim/pattern"
)

// Safety counts what the safety oracle found.
type Safety struct {
	Overlaps        int `json:"overlaps"`         // pairs of overlapping critical sections
	LostUpdates     int `json:"lost_updates"`     // accepted writes − final counter
	FenceViolations int `json:"fence_violations"` // reused or decreasing fence tokens
	StaleRejected   int `json:"stale_rejected"`   // writes the store refused for a stale fence
	Abandoned       int `json:"abandoned"`        // writes skipped after a failed lease check
	Accepted        int `json:"accepted"`         // writes the store accepted
	Counter         int `json:"counter"`          // the store's final value
	// Under a MaxHolders claim only (see the package documentation of sim):
	PeakHolders int `json:"peak_holders,omitempty"`   // most clients holding at one instant
	Excess      int `json:"excess_holders,omitempty"` // sections that took holders past the claim
}

// holding is one lease's critical section: from its grant to its last act.
type holding struct {
	id     int
	client int
	start  int64
	end    int64
	read   bool // a shared (read) lease: pattern.ReadLease
	excess bool // already reported as one holder too many
}

// SafetyOracle judges mutual exclusion, fencing and the store's updates
// from true time (see the package documentation of sim).
type SafetyOracle struct {
	v        View
	log      *Log
	leases   []*holding
	maxLen   int64
	pairs    map[[2]int]bool
	safety   Safety
	fences   map[int64]bool
	fenceMax []fenceMark // running maximum, in grant-return order
	// limit > 0 counts holders instead of pairing sections: more than
	// limit sections at one instant is a violation (see holderLimit).
	limit int
}

type fenceMark struct{ at, max int64 }

// NewSafety is the safety oracle of a run of a pattern that claims c.
func NewSafety(v View, log *Log, c pattern.Claims) *SafetyOracle {
	return &SafetyOracle{v: v, log: log, pairs: map[[2]int]bool{}, fences: map[int64]bool{}, limit: holderLimit(c)}
}

// holderLimit is the number of simultaneous holders the oracle allows
// when it counts them: a pattern that claims MaxHolders and not Mutex is
// judged by counting; every other pattern by pairs (0).
func holderLimit(c pattern.Claims) int {
	if c.Mutex || c.MaxHolders < 1 {
		return 0
	}
	return c.MaxHolders
}

// Observe judges e. A store request is an act of its holder where it
// takes effect, at the store (StoreRead, StoreWrote); a lease check where the
// client makes it.
func (o *SafetyOracle) Observe(e Event) {
	switch e.Kind {
	case Granted:
		o.grant(e.Client, e.Lease, e.Call, e.Fence, e.Shared)
	case Acting:
		if e.What == "check" {
			o.act(e.Lease, "check")
		}
	case Abandoned:
		o.safety.Abandoned++
	case StoreRead:
		o.act(e.Lease, "read")
	case StoreWrote:
		o.wrote(e)
	}
}

// End judges nothing: every section was judged as it grew.
func (o *SafetyOracle) End(int64) {}

// Safety returns the counts so far; the caller completes Counter and
// LostUpdates from its store.
func (o *SafetyOracle) Safety() Safety { return o.safety }

// wrote judges a write the store executed.
func (o *SafetyOracle) wrote(e Event) {
	o.act(e.Lease, "write")
	if e.Stale {
		o.safety.StaleRejected++
		return
	}
	if e.Over != e.From {
		o.log.Violate(pattern.FindingLostUpdate, []int{e.Client}, fmt.Sprintf("%s wrote counter=%d, computed from %d, over %d: %d increment(s) lost",
			o.v.Name(e.Client), e.Value, e.From, e.Over, max(e.Over-e.From, 0)))
	}
	o.safety.Accepted++
}

// grant opens critical section id for a lease client c was granted now by
// an Acquire called at call (a read lease when read), and checks its fence
// token.
func (o *SafetyOracle) grant(c, id int, call, fence int64, read bool) {
	now := o.v.Now()
	if id != len(o.leases) {
		panic(fmt.Sprintf("oracle: holding %d granted after %d holdings", id, len(o.leases)))
	}
	o.leases = append(o.leases, &holding{id: id, client: c, start: now, end: now, read: read})
	if fence > 0 {
		o.checkFence(c, call, fence)
	}
}

func (o *SafetyOracle) checkFence(c int, call, fence int64) {
	name := o.v.Name(c)
	if o.fences[fence] {
		o.fenceViolation(c, fmt.Sprintf("%s was granted fence %d, which was granted before", name, fence))
	} else if i := sort.Search(len(o.fenceMax), func(i int) bool { return o.fenceMax[i].at >= call }); i > 0 && o.fenceMax[i-1].max >= fence {
		o.fenceViolation(c, fmt.Sprintf("%s was granted fence %d after fence %d had been granted", name, fence, o.fenceMax[i-1].max))
	}
	o.fences[fence] = true
	top := fence
	if n := len(o.fenceMax); n > 0 {
		top = max(top, o.fenceMax[n-1].max)
	}
	o.fenceMax = append(o.fenceMax, fenceMark{at: o.v.Now(), max: top})
}

func (o *SafetyOracle) fenceViolation(c int, detail string) {
	o.log.Violate(pattern.FindingFence, []int{c}, detail)
	o.safety.FenceViolations++
}

// act records that lease id's holder relied on it now (what: "check",
// "read", "write") and reports every critical section it now overlaps.
func (o *SafetyOracle) act(id int, what string) {
	if id < 0 || id >= len(o.leases) {
		return
	}
	h := o.leases[id]
	now := o.v.Now()
	if now <= h.end {
		return
	}
	from := h.end
	h.end = now
	o.maxLen = max(o.maxLen, h.end-h.start)
	if o.limit > 0 {
		o.countHolders(h, from, what)
		return
	}
	for j := len(o.leases) - 1; j >= 0; j-- {
		y := o.leases[j]
		if y.start+o.maxLen <= h.start {
			break // y and every earlier section ended before h began
		}
		if y.client == h.client || (y.read && h.read) || !(y.start < h.end && h.start < y.end) {
			continue // readers share
		}
		o.overlap(h, y, what)
	}
}

func (o *SafetyOracle) overlap(h, y *holding, what string) {
	key := [2]int{min(h.id, y.id), max(h.id, y.id)}
	if o.pairs[key] {
		return
	}
	o.pairs[key] = true
	o.safety.Overlaps++
	hn, yn := o.v.Name(h.client), o.v.Name(y.client)
	o.log.Violate(pattern.FindingOverlap, []int{h.client, y.client}, fmt.Sprintf("%s relied on its lease (%s) while %s held the lock (granted at t=%s; %s's since t=%s)",
		hn, what, yn, FormatTime(y.start), hn, FormatTime(h.start)))
}

package sim

import (
	"fmt"
	"sort"

	"github.com/locksim/locksim/pattern"
)

// holding is one lease's critical section: from its grant to its last act.
type holding struct {
	id     int
	client int
	start  int64
	end    int64
	read   bool // a shared (read) lease: pattern.ReadLease
	excess bool // already reported as one holder too many
}

// oracle judges a run from true time (see the package documentation).
type oracle struct {
	v          view
	leases     []*holding
	maxLen     int64
	pairs      map[[2]int]bool
	safety     Safety
	violations []Violation
	count      int
	fences     map[int64]bool
	fenceMax   []fenceMark // running maximum, in grant-return order
	// limit > 0 counts holders instead of pairing sections: more than
	// limit sections at one instant is a violation (see holderLimit).
	limit int
}

type fenceMark struct{ at, max int64 }

// view is what the oracles need of the run they judge: true time, the
// clients' names, and the trace (nil when off).
type view struct {
	now   func() int64
	name  func(c int) string
	trace func(format string, a ...any)
}

func newOracle(v view, c pattern.Claims) *oracle {
	return &oracle{v: v, pairs: map[[2]int]bool{}, fences: map[int64]bool{}, limit: holderLimit(c)}
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

// grant opens a critical section for a lease client c was granted now by
// an Acquire called at call (a read lease when read), and checks its fence
// token.
func (o *oracle) grant(c int, call, fence int64, read bool) int {
	now := o.v.now()
	h := &holding{id: len(o.leases), client: c, start: now, end: now, read: read}
	o.leases = append(o.leases, h)
	if fence > 0 {
		o.checkFence(c, call, fence)
	}
	return h.id
}

func (o *oracle) checkFence(c int, call, fence int64) {
	name := o.v.name(c)
	if o.fences[fence] {
		o.violate("fence", []int{c}, fmt.Sprintf("%s was granted fence %d, which was granted before", name, fence))
	} else if i := sort.Search(len(o.fenceMax), func(i int) bool { return o.fenceMax[i].at >= call }); i > 0 && o.fenceMax[i-1].max >= fence {
		o.violate("fence", []int{c}, fmt.Sprintf("%s was granted fence %d after fence %d had been granted", name, fence, o.fenceMax[i-1].max))
	}
	o.fences[fence] = true
	top := fence
	if n := len(o.fenceMax); n > 0 {
		top = max(top, o.fenceMax[n-1].max)
	}
	o.fenceMax = append(o.fenceMax, fenceMark{at: o.v.now(), max: top})
}

// act records that lease id's holder relied on it now (what: "check",
// "read", "write") and reports every critical section it now overlaps.
func (o *oracle) act(id int, what string) {
	if id < 0 || id >= len(o.leases) {
		return
	}
	h := o.leases[id]
	now := o.v.now()
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

func (o *oracle) overlap(h, y *holding, what string) {
	key := [2]int{min(h.id, y.id), max(h.id, y.id)}
	if o.pairs[key] {
		return
	}
	o.pairs[key] = true
	o.safety.Overlaps++
	hn, yn := o.v.name(h.client), o.v.name(y.client)
	o.violate("overlap", []int{h.client, y.client}, fmt.Sprintf("%s relied on its lease (%s) while %s held the lock (granted at t=%s; %s's since t=%s)",
		hn, what, yn, fmtT(y.start), hn, fmtT(h.start)))
}

// violate records a finding and traces it.
func (o *oracle) violate(kind string, clients []int, detail string) {
	o.count++
	names := make([]string, len(clients))
	for i, c := range clients {
		names[i] = o.v.name(c)
	}
	sort.Strings(names)
	if len(o.violations) < maxViolations {
		o.violations = append(o.violations, Violation{Kind: kind, At: o.v.now(), Clients: names, Detail: detail})
	}
	if kind == "fence" {
		o.safety.FenceViolations++
	}
	if o.v.trace != nil {
		o.v.trace("VIOLATION %s %s: %s", kind, joinNames(names), detail)
	}
}

func joinNames(ns []string) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ","
		}
		s += n
	}
	return s
}

package oracle

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/pattern"
)

// Progress is the liveness oracle. It watches, in true time, whether any
// client holds the lock as the clients see it (from Acquire's return to
// the call of Release) while some client wants it (from its call of
// Acquire to its grant; a refused or timed-out Acquire goes on wanting,
// since the client tries again): a stretch in which some client wants the
// lock and none holds it is a stall. Time in which nobody wants the lock
// (every client thinking between sections) is no stall. A stall longer
// than the bound means the lock stayed taken after its holder was gone (a
// renewal that outlived its release, a key nobody owns) or free while
// every waiter was refused (a queue that serves nobody). A single client
// that starves while others take turns is not a stall (sim's
// Liveness.Stuck counts it).
type Progress struct {
	v       View
	log     *Log
	ttl     int64
	bound   int64 // the longest stall allowed
	held    []int // per client: the leases it holds now
	holders int   // clients with a lease now
	wants   []bool
	wanters int   // clients waiting for a grant now
	since   int64 // the start of the current stall (see stalled)
	stalls  int
	longest int64
}

// NewProgress is the progress oracle of a run of clients clients of a
// pattern that claims c under a TTL of ttl.
func NewProgress(v View, log *Log, c pattern.Claims, ttl time.Duration, clients int) *Progress {
	return &Progress{v: v, log: log, ttl: int64(ttl), bound: int64(ProgressBound(c, ttl)),
		held: make([]int, clients), wants: make([]bool, clients)}
}

// ProgressBound is the longest stretch of true time for which no client
// may hold the lock, under claims c and a scenario's TTL: c.Progress TTLs,
// or pattern.ProgressTTLs when c makes no progress claim.
func ProgressBound(c pattern.Claims, ttl time.Duration) time.Duration {
	n := c.Progress
	if n <= 0 {
		n = pattern.ProgressTTLs
	}
	return time.Duration(n) * ttl
}

// Observe follows the clients' wants and holdings.
func (p *Progress) Observe(e Event) {
	switch e.Kind {
	case Wanting:
		p.want(e.Client)
	case Granted:
		p.hold(e.Client)
	case Releasing:
		p.free(e.Client)
	}
}

// Stalls counts the stalls past the bound; Longest is the longest
// stretch without a holder while some client wanted the lock.
func (p *Progress) Stalls() (n int, longest time.Duration) { return p.stalls, time.Duration(p.longest) }

// stalled says whether a stall is open: some client wants the lock and
// none holds it.
func (p *Progress) stalled() bool { return p.holders == 0 && p.wanters > 0 }

// want notes that client c calls Acquire now. A client that holds a
// lease already (a nested entry) or still waits from a refused attempt
// changes nothing.
func (p *Progress) want(c int) {
	if p.held[c] > 0 || p.wants[c] {
		return
	}
	p.wants[c] = true
	p.wanters++
	if p.stalled() && p.wanters == 1 {
		p.since = p.v.Now()
	}
}

// hold notes that client c was granted a lease now.
func (p *Progress) hold(c int) {
	open := p.stalled()
	if p.wants[c] {
		p.wants[c] = false
		p.wanters--
	}
	p.held[c]++
	if p.held[c] > 1 {
		return
	}
	if open {
		p.end(p.v.Now(), "")
	}
	p.holders++
}

// free notes that client c gave up one lease now (it calls Release).
func (p *Progress) free(c int) {
	if p.held[c] == 0 {
		return
	}
	p.held[c]--
	if p.held[c] > 0 {
		return
	}
	p.holders--
	if p.stalled() {
		p.since = p.v.Now()
	}
}

// end closes the current stall at now and reports it if it was too long;
// open says why it is closed other than by a grant.
func (p *Progress) end(now int64, open string) {
	d := now - p.since
	p.longest = max(p.longest, d)
	if d <= p.bound {
		return
	}
	p.stalls++
	detail := fmt.Sprintf("no client held the lock from t=%s to t=%s (%v, bound %v = %d TTL)%s",
		FormatTime(p.since), FormatTime(now), time.Duration(d).Round(time.Millisecond), time.Duration(p.bound),
		p.bound/p.ttl, open)
	p.log.Violate(pattern.FindingStall, p.waiting(), detail)
}

// waiting lists the clients that held nothing at the end of a stall.
func (p *Progress) waiting() []int {
	var out []int
	for c, n := range p.held {
		if n == 0 {
			out = append(out, c)
		}
	}
	return out
}

// End judges a stall still open at the end of the run.
func (p *Progress) End(at int64) {
	if p.stalled() {
		p.end(at, " and still at the end of the run")
	}
}

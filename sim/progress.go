package sim

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/pattern"
)

// DefaultProgressTTLs is the bound, in TTLs, by which the progress oracle
// measures a pattern that makes no progress claim of its own
// (pattern.Claims.Progress is 0): explore and the gate count progress for
// every pattern.
const DefaultProgressTTLs = pattern.ProgressTTLs

// progress is the liveness oracle. It watches, in true time, whether any
// client holds the lock as the clients see it (from Acquire's return to
// the call of Release) while some client wants it (from its call of
// Acquire to its grant; a refused or timed-out Acquire goes on wanting,
// since the client tries again): a stretch in which some client wants the
// lock and none holds it is a stall. Time in which nobody wants the lock
// (every client thinking between sections) is no stall. A stall longer
// than the bound means the lock stayed taken after its holder was gone (a
// renewal that outlived its release, a key nobody owns) or free while
// every waiter was refused (a queue that serves nobody). A single client
// that starves while others take turns is not a stall: Liveness.Stuck
// counts it.
type progress struct {
	w       *world
	bound   int64 // the longest stall allowed
	held    []int // per client: the leases it holds now
	holders int   // clients with a lease now
	wants   []bool
	wanters int   // clients waiting for a grant now
	since   int64 // the start of the current stall (see stalled)
	stalls  int
	longest int64
}

func newProgress(w *world, c pattern.Claims) *progress {
	n := w.sc.Clients
	return &progress{w: w, bound: int64(ProgressBound(c, w.sc.TTL)), held: make([]int, n), wants: make([]bool, n)}
}

// stalled says whether a stall is open: some client wants the lock and
// none holds it.
func (p *progress) stalled() bool { return p.holders == 0 && p.wanters > 0 }

// ProgressBound is the longest stretch of true time for which no client
// may hold the lock, under claims c and a scenario's TTL: c.Progress TTLs,
// or DefaultProgressTTLs when c makes no progress claim.
func ProgressBound(c pattern.Claims, ttl time.Duration) time.Duration {
	n := c.Progress
	if n <= 0 {
		n = DefaultProgressTTLs
	}
	return time.Duration(n) * ttl
}

// want notes that client c calls Acquire now. A client that holds a
// lease already (a nested entry) or still waits from a refused attempt
// changes nothing.
func (p *progress) want(c int) {
	if p.held[c] > 0 || p.wants[c] {
		return
	}
	p.wants[c] = true
	p.wanters++
	if p.stalled() && p.wanters == 1 {
		p.since = p.w.s.Now()
	}
}

// hold notes that client c was granted a lease now.
func (p *progress) hold(c int) {
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
		p.end(p.w.s.Now(), "")
	}
	p.holders++
}

// free notes that client c gave up one lease now (it calls Release).
func (p *progress) free(c int) {
	if p.held[c] == 0 {
		return
	}
	p.held[c]--
	if p.held[c] > 0 {
		return
	}
	p.holders--
	if p.stalled() {
		p.since = p.w.s.Now()
	}
}

// end closes the current stall at now and reports it if it was too long;
// open says why it is closed other than by a grant.
func (p *progress) end(now int64, open string) {
	d := now - p.since
	p.longest = max(p.longest, d)
	if d <= p.bound {
		return
	}
	p.stalls++
	detail := fmt.Sprintf("no client held the lock from t=%s to t=%s (%v, bound %v = %d TTL)%s",
		fmtT(p.since), fmtT(now), time.Duration(d).Round(time.Millisecond), time.Duration(p.bound),
		p.bound/int64(p.w.sc.TTL), open)
	p.w.or.violate("stall", p.waiting(), detail)
}

// waiting lists the clients that held nothing at the end of a stall.
func (p *progress) waiting() []int {
	var out []int
	for c, n := range p.held {
		if n == 0 {
			out = append(out, c)
		}
	}
	return out
}

// finish judges a stall still open at the end of the run.
func (p *progress) finish() {
	if p.stalled() {
		p.end(int64(p.w.sc.Duration), " and still at the end of the run")
	}
}

// Stalled says whether the run broke the progress property (see
// pattern.Claims.Progress): the lock was free for longer than the bound.
func (l Liveness) Stalled() bool { return l.Stalls > 0 }

// Starved says whether some client acquired nothing in the last stretch of
// the run (Stuck), which no pattern claims but a fair one should avoid.
func (l Liveness) Starved() bool { return len(l.Stuck) > 0 }

// stuckWindow is the last stretch of the run in which every client must
// acquire at least once.
func (w *world) stuckWindow() time.Duration {
	return min(max(20*w.sc.TTL, time.Second), w.sc.Duration)
}

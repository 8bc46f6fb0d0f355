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
// the call of Release): a stretch in which none does is a stall. Every
// client of the workload wants the lock whenever it does not hold it, so
// a stall longer than the bound means the lock stayed taken after its
// holder was gone (a renewal that outlived its release, a key nobody
// owns) or free while every waiter was refused (a queue that serves
// nobody). A single client that starves while others take turns is not a
// stall: Liveness.Stuck counts it.
type progress struct {
	w       *world
	bound   int64 // the longest stall allowed
	held    []int // per client: the leases it holds now
	holders int   // clients with a lease now
	since   int64 // the start of the current stall, when holders == 0
	stalls  int
	longest int64
}

func newProgress(w *world, c pattern.Claims) *progress {
	return &progress{w: w, bound: int64(ProgressBound(c, w.sc.TTL)), held: make([]int, w.sc.Clients)}
}

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

// hold notes that client c was granted a lease now.
func (p *progress) hold(c int) {
	p.held[c]++
	if p.held[c] > 1 {
		return
	}
	if p.holders == 0 {
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
	if p.holders == 0 {
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
	if p.holders == 0 {
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

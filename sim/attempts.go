package sim

import (
	"fmt"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
)

// Attempts of an acquisition (fault.AcquireAttempt). The simulator sees
// a pattern's retry loop only through its requests: an acquisition's
// attempt starts with the first request of the Acquire call, and again
// with each request sent after the pattern waited — when none of the
// acquisition's requests is in flight and true time has moved since the
// last one ended (the retry backoff is never zero). Requests sent at the
// instant a reply arrived (a NOSCRIPT fallback, Redlock's release of a
// missed quorum) belong to the attempt that got the reply.

// attempts is one client's count of the acquisition in progress.
type attempts struct {
	n        int   // attempts of the current acquisition so far
	inflight int   // its requests not yet ended
	lastEnd  int64 // when the last of them ended
	most     int   // the most attempts one acquisition took in the run
}

// begin resets the count: an Acquire call starts.
func (a *attempts) begin() { a.n, a.inflight = 0, 0 }

// sent counts an acquire request sent now and reports whether it starts
// an attempt.
func (a *attempts) sent(now int64) bool {
	starts := a.n == 0 || a.inflight == 0 && now > a.lastEnd
	a.inflight++
	if starts {
		a.n++
		a.most = max(a.most, a.n)
	}
	return starts
}

// ended notes that an acquire request ended (reply, error or timeout).
func (a *attempts) ended(now int64) {
	a.inflight = max(a.inflight-1, 0)
	a.lastEnd = now
}

// acquireSent is told of each acquire request client c sends: at the
// start of an attempt it fires the faults waiting for that attempt.
func (w *world) acquireSent(c *client) {
	if !c.tries.sent(w.s.Now()) || w.s.Stopping() {
		return
	}
	fs := w.trig[trigKey{c.name, fault.AcquireAttempt, c.tries.n}]
	var due []int
	for _, i := range fs {
		if !w.reached[i] {
			due = append(due, i)
		}
	}
	if len(due) > 0 && w.fireTriggered(due) {
		_ = w.s.Current().Yield()
	}
}

// observeCall is the network's Observe: it ends an acquire request's
// share of its attempt, then records what the history needs.
func (w *world) observeCall(rec network.CallRecord) {
	if rec.Client < len(w.clients) {
		c := w.clients[rec.Client]
		if g := w.s.Current(); g != nil && c.callKind(g) == phaseAcquire {
			c.tries.ended(w.s.Now())
		}
	}
	w.observe(rec)
}

// whyNoAttempt explains why a fault on the n-th attempt did not fire.
func whyNoAttempt(c *client, name string, n int) string {
	most := 0
	if c != nil {
		most = c.tries.most
	}
	return fmt.Sprintf("no acquisition of %s made %d attempts (the most was %d)", name, n, most)
}

package lockstest

import (
	"fmt"

	"github.com/locksim/locksim/locks"
)

// checkFenceIncreases: fencing tokens strictly increase across holders.
func checkFenceIncreases(r *run) {
	clients := []*client{r.client(1), r.client(2)}
	var last int64
	for i := range 6 {
		c, other := clients[i%2], clients[(i+1)%2]
		l := c.acquire(fmt.Sprintf(" #%d", i+1))
		if l.Fence <= last {
			r.t.Errorf("Acquire #%d (client %d): lease.Fence = %d, want > %d", i+1, c.n, l.Fence, last)
		}
		last = l.Fence
		other.wantTaken(fmt.Sprintf(" while client %d holds fence %d", c.n, l.Fence))
		c.release(l, "")
	}
}

// checkFenceAcrossExpiry: tokens keep increasing when holders expire
// instead of releasing, and the counter itself never expires. The counter
// is locks.FencedCounterKey of the key given to the factory.
func checkFenceAcrossExpiry(r *run) {
	clients := []*client{r.client(1), r.client(2)}
	var last int64
	for i := range 3 {
		if i > 0 {
			r.advance(r.ttl() + r.env.margin()) // the holder expires, unreleased
		}
		c := clients[i%2]
		l := c.acquire(fmt.Sprintf(" #%d (after %d expiries)", i+1, i))
		if l.Fence <= last {
			r.t.Errorf("Acquire #%d (client %d) after %d expiries: lease.Fence = %d, want > %d", i+1, c.n, i, l.Fence, last)
		}
		last = l.Fence
	}
	key := locks.FencedCounterKey(r.key)
	if d := r.pttl(key); d != -1 {
		r.t.Errorf("PTTL(%q) = %v after 2 expiries, want -1 (a fence counter that never expires)", key, d)
	}
}

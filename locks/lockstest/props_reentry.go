package lockstest

import (
	"fmt"

	"github.com/locksim/locksim/locks"
)

// checkReentry: the owner re-enters (Count 1, 2, 3); the lock stays held
// through partial releases and is free after the last one.
func checkReentry(r *run) {
	c1, c2 := r.client(1), r.client(2)
	var leases []*locks.Lease
	for want := 1; want <= 3; want++ {
		l := c1.acquire(fmt.Sprintf(" #%d", want))
		if l.Count != want {
			r.t.Errorf("Acquire(client 1) #%d: lease.Count = %d, want %d", want, l.Count, want)
		}
		leases = append(leases, l)
	}
	c2.wantTaken(" while client 1 holds the lock 3 deep")
	for i := len(leases) - 1; i > 0; i-- {
		when := fmt.Sprintf(" after %d of 3 releases", len(leases)-i)
		c1.release(leases[i], "")
		c2.wantTaken(when)
		if err := leases[0].Err(); err != nil {
			r.t.Errorf("lease.Err() = %v%s, want nil (still held)", err, when)
		}
	}
	c1.release(leases[0], " (the last)")
	l := c2.acquire(" after client 1's last release")
	c2.release(l, "")
}

// checkReentryRefresh: re-entry and partial release reset the TTL. PTTL is
// read right after each; without a watchdog (which would hide it) the lock
// must also outlive the expiry it would have had without the refreshes.
func checkReentryRefresh(r *run) {
	ttl := r.ttl()
	slowWatchdog := func(o *locks.Options) {
		if r.env.Caps.Watchdog {
			o.RenewEvery = ttl * 9 / 10 // not before the PTTL checks
		}
	}
	c1, c2 := r.client(1, slowWatchdog), r.client(2)
	l1 := c1.acquire("")
	r.advance(ttl * 3 / 10)
	l2 := c1.acquire(" (re-entry at 0.3×TTL)")
	r.wantRefreshed(l1.Key, "after re-entry at 0.3×TTL")
	r.advance(ttl * 5 / 10)
	c1.release(l2, " (partial, at 0.8×TTL)")
	r.wantRefreshed(l1.Key, "after partial release at 0.8×TTL")
	if !r.env.Caps.Watchdog {
		// At 1.5×TTL: expired by now without the refreshes (at 1.0×TTL
		// without any, at 1.3×TTL without the partial release's).
		r.advance(ttl * 7 / 10)
		c2.wantTaken(" at 1.5×TTL, 0.7×TTL after the partial release")
		if err := l1.Err(); err != nil {
			r.t.Errorf("lease.Err() = %v 0.7×TTL after the partial release, want nil", err)
		}
	}
	c1.release(l1, " (the last)")
	l := c2.acquire(" after client 1's last release")
	c2.release(l, "")
}

// wantRefreshed checks that key's PTTL was just reset to the TTL: above
// 0.75×TTL, where the previous expiry would leave at most 0.7×TTL.
func (r *run) wantRefreshed(key, when string) {
	r.t.Helper()
	if d, floor := r.pttl(key), r.ttl()*3/4; d < floor {
		r.t.Errorf("PTTL(%q) %s = %v, want > %v (reset to the TTL %v)", key, when, d, floor, r.ttl())
	}
}

package lockstest

import (
	"time"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
)

// failRelease releases l with every node down, so the release cannot
// reach the server, and brings the nodes back: the release must fail.
func (r *run) failRelease(c *client, l *locks.Lease) {
	r.t.Helper()
	for i := range r.env.nodes() {
		r.env.Backend.Down(r.t, i)
	}
	err := c.l.Release(r.ctx, l)
	for i := range r.env.nodes() {
		r.env.Backend.Up(r.t, i)
	}
	if err == nil {
		r.t.Fatalf("Release(client %d) with every node down = nil, want an error", c.n)
	}
}

// keptData reports whether the backend's nodes came back with the lock
// key (a restarted real redis-server comes back empty).
func (r *run) keptData(key string) bool {
	r.t.Helper()
	return r.pttl(key) != -2
}

// checkWatchdogStopsOnFailedRelease: a Release that fails (the node is
// down) still stops the renewal: Done closes, and once the nodes are back
// nothing renews the key, so it expires within a TTL and another client
// takes the lock. A renewal that went on would hold the lock for as long
// as the process runs, for a holder that has let go of it.
func checkWatchdogStopsOnFailedRelease(r *run) {
	c1 := r.client(1)
	l1 := c1.acquire("")
	r.failRelease(c1, l1)
	c2 := r.client(2) // connected to the nodes as they came back
	select {
	case <-l1.Done():
	case <-time.After(10 * time.Second):
		r.t.Errorf("lease.Done() not closed 10s after its Release failed: the renewal goes on")
	}
	// Step through two TTLs, each step a fraction of the validity, so a
	// renewal still running would have kept the key alive.
	for range 8 {
		r.advance(r.ttl() / 4)
	}
	if !clocktest.Eventually(10*time.Second, func() bool { return r.pttl(l1.Key) == -2 }) {
		r.t.Errorf("PTTL(%q) = %v 2×TTL after a failed Release, want -2 (no key): the renewal went on", l1.Key, r.pttl(l1.Key))
	}
	l2 := c2.acquire(" after client 1's failed release")
	c2.release(l2, "")
}

// checkFreshAfterFailedRelease: after a Release of its only lease failed
// (the node was down, so the entry stayed in Redis), the owner's next
// Acquire begins a new holding — Count 1 and, fenced, a new fencing token
// — instead of re-entering the holding it let go of, and releasing it
// frees the lock (the stale entry is gone with it).
func checkFreshAfterFailedRelease(r *run) {
	c1 := r.client(1)
	l1 := c1.acquire("")
	r.failRelease(c1, l1)
	if !r.keptData(l1.Key) {
		r.t.Skip("the backend's nodes came back without their data (and elsewhere): no stale entry to re-enter")
	}
	c2 := r.client(2)
	l2 := c1.acquire(" after its release failed")
	if l2.Count != 1 {
		r.t.Errorf("Acquire after a failed Release: lease.Count = %d, want 1 (a new holding, not a re-entry)", l2.Count)
	}
	if r.env.Caps.Fenced && l2.Fence <= l1.Fence {
		r.t.Errorf("Acquire after a failed Release: lease.Fence = %d, want > %d (the released holding's token)", l2.Fence, l1.Fence)
	}
	c1.release(l2, "")
	if d := r.pttl(l1.Key); d != -2 {
		r.t.Errorf("PTTL(%q) = %v after the new holding's Release, want -2 (no key): the stale entry still holds it", l1.Key, d)
	}
	l3 := c2.acquire(" after client 1 released")
	c2.release(l3, "")
}

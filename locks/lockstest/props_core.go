package lockstest

import (
	"errors"
	"time"

	"github.com/locksim/locksim/locks"
)

// checkMutualExclusion: while one client holds the lock another cannot
// take it; after Release it can, and the first cannot.
func checkMutualExclusion(r *run) {
	c1, c2 := r.client(1), r.client(2)
	l1 := c1.acquire("")
	checkFreshLease(r, l1)
	c2.wantTaken(" while client 1 holds the lock")
	c1.release(l1, "")
	if err := l1.Err(); !errors.Is(err, locks.ErrReleased) {
		r.t.Errorf("after Release, lease.Err() = %v, want ErrReleased", err)
	}
	select {
	case <-l1.Done():
	default:
		r.t.Errorf("after Release, lease.Done() is not closed")
	}
	l2 := c2.acquire(" after client 1 released")
	c1.wantTaken(" while client 2 holds the lock")
	c2.release(l2, "")
}

// checkFreshLease checks what every first acquisition promises.
func checkFreshLease(r *run, l *locks.Lease) {
	r.t.Helper()
	if l.Count != 1 {
		r.t.Errorf("lease.Count = %d after a first Acquire, want 1", l.Count)
	}
	if !r.env.Caps.Fenced && l.Fence != 0 {
		r.t.Errorf("lease.Fence = %d for a pattern that issues no fencing tokens, want 0", l.Fence)
	}
	if err := l.Err(); err != nil {
		r.t.Errorf("lease.Err() = %v right after Acquire, want nil", err)
	}
	if v := l.Validity(); v <= 0 || v > r.ttl() {
		r.t.Errorf("lease.Validity() = %v right after Acquire, want in (0, %v]", v, r.ttl())
	}
	if l.Key == "" || l.Token == "" {
		r.t.Errorf("lease Key %q, Token %q: want both set", l.Key, l.Token)
	}
}

// checkOwnerCheckedRelease: a lease that no longer holds the lock (its key
// vanished and another client took the lock) cannot release the new
// holder's lock.
func checkOwnerCheckedRelease(r *run) {
	c1, c2, c3 := r.client(1), r.client(2), r.client(3)
	l1 := c1.acquire("")
	r.deleteKey(l1.Key)
	l2 := c2.acquire(" after client 1's key vanished")
	c1.wantReleaseNotHeld(l1, " of a lease whose key client 2 now holds")
	c3.wantTaken(" after client 1's stale Release")
	if err := l2.Err(); err != nil {
		r.t.Errorf("holder's lease.Err() = %v after another client's stale Release, want nil", err)
	}
	c2.release(l2, " after client 1's stale Release")
	l3 := c3.acquire(" after client 2 released")
	c3.release(l3, "")
}

// checkExpiredLease: once the TTL has passed, the lease reports the loss,
// another client can take the lock, and the old lease cannot release it.
func checkExpiredLease(r *run) {
	c1, c2, c3 := r.client(1), r.client(2), r.client(3)
	l1 := c1.acquire("")
	r.advance(r.ttl() + r.env.margin())
	select { // before anyone calls Err: a timer on the holder's clock closes Done
	case <-l1.Done():
	case <-time.After(bound):
		r.t.Errorf("lease.Done() still open %v after TTL+%v (nobody called Err), want closed when the validity ran out", bound, r.env.margin())
	}
	if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after TTL+%v, want ErrLockLost", err, r.env.margin())
	}
	if v := l1.Validity(); v > 0 {
		r.t.Errorf("lease.Validity() = %v after TTL+%v, want ≤ 0", v, r.env.margin())
	}
	l2 := c2.acquire(" after client 1's lease expired")
	c1.wantReleaseNotHeld(l1, " of an expired lease")
	c3.wantTaken(" after client 1 released its expired lease")
	c2.release(l2, "")
}

// checkExpiry: the lock holds for its TTL and frees itself after it.
func checkExpiry(r *run) {
	c1, c2 := r.client(1), r.client(2)
	c1.acquire("")
	r.advance(r.ttl() / 2)
	c2.wantTaken(" at TTL/2")
	r.advance(r.ttl()/2 + r.env.margin())
	l2 := c2.acquire(" after TTL+margin")
	c2.release(l2, "")
}

// checkExtend: Extend pushes the expiry out; on a lost lease it fails with
// ErrNotHeld.
func checkExtend(r *run) {
	c1, c2 := r.client(1), r.client(2)
	ext, ok := c1.l.(locks.Extender)
	if !ok {
		r.t.Fatalf("%T does not implement locks.Extender", c1.l)
	}
	l1 := c1.acquire("")
	r.advance(r.ttl() * 6 / 10)
	if err := ext.Extend(r.ctx, l1); err != nil {
		r.t.Fatalf("Extend(client 1) at 0.6×TTL = %v, want nil", err)
	}
	r.advance(r.ttl() * 6 / 10)
	c2.wantTaken(" at 1.2×TTL, 0.6×TTL after Extend")
	if err := l1.Err(); err != nil {
		r.t.Errorf("lease.Err() = %v 0.6×TTL after Extend, want nil", err)
	}
	r.advance(r.ttl() + r.env.margin())
	l2 := c2.acquire(" after the extended TTL ran out")
	if err := ext.Extend(r.ctx, l1); !errors.Is(err, locks.ErrNotHeld) {
		r.t.Errorf("Extend(client 1) of an expired lease = %v, want ErrNotHeld", err)
	}
	c2.release(l2, "")
}

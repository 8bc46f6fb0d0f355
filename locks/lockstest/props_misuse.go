package lockstest

import (
	"errors"

	"github.com/locksim/locksim/locks"
)

// checkForeignLease: a Locker honours only the leases it issued. A lease of
// another Locker (on another key, or another client on the same key), a
// hand-built, zero, nil or altered lease gets ErrNotHeld, without a panic,
// and neither ends the lease it names nor frees its lock; a watchdog keeps
// renewing it.
func checkForeignLease(r *run) {
	c1, c2 := r.client(1), r.client(2)
	other := r.otherKeyClient(3)
	l1 := c1.acquire("")
	lo := other.acquire(" on another key")
	for _, tc := range []struct {
		what string
		by   *client
		l    *locks.Lease
	}{
		{"a lease of another Locker on another key", c1, lo},
		{"another client's lease on the same key", c2, l1},
		{"a hand-built lease", c2, &locks.Lease{Key: l1.Key, Token: l1.Token}},
		{"a hand-built copy of the holder's lease", c1, &locks.Lease{Key: l1.Key, Token: l1.Token, Fence: l1.Fence, Count: l1.Count}},
		{"a zero lease", c1, &locks.Lease{}},
		{"a nil lease", c1, nil},
		{"the holder's lease with another Token", c1, altered(l1)},
	} {
		tc.by.wantReleaseNotHeld(tc.l, " of "+tc.what)
		if ext, ok := tc.by.l.(locks.Extender); ok {
			if err := ext.Extend(r.ctx, tc.l); !errors.Is(err, locks.ErrNotHeld) {
				r.t.Errorf("Extend(client %d) of %s = %v, want ErrNotHeld", tc.by.n, tc.what, err)
			}
		}
		r.stillHeld(l1, c2, " after a Release of "+tc.what)
	}
	if err := lo.Err(); err != nil {
		r.t.Errorf("the other key's lease.Err() = %v after another Locker released it, want nil", err)
	}
	other2 := r.otherKeyClient(4)
	other2.wantTaken(" on the other key after another Locker released its lease")
	checkUnissued(r)
	if r.env.Caps.Watchdog {
		r.advance(2 * r.ttl())
		r.stillHeld(l1, c2, " 2×TTL after the foreign releases (its watchdog must still renew)")
	}
	c1.release(l1, " after the foreign releases")
	other.release(lo, "")
}

// checkUnissued: the methods of a lease no Locker issued do not panic and
// say it holds nothing.
func checkUnissued(r *run) {
	for what, l := range map[string]*locks.Lease{"nil": nil, "zero": {}} {
		if err := l.Err(); !errors.Is(err, locks.ErrNotHeld) {
			r.t.Errorf("%s lease: Err() = %v, want ErrNotHeld", what, err)
		}
		if v := l.Validity(); v != 0 {
			r.t.Errorf("%s lease: Validity() = %v, want 0", what, v)
		}
		select {
		case <-l.Done():
		default:
			r.t.Errorf("%s lease: Done() is open, want closed", what)
		}
	}
}

// altered returns a lease that shares l's issue but names another token.
func altered(l *locks.Lease) *locks.Lease {
	cp := *l
	cp.Token += "-forged"
	return &cp
}

// checkStaleLease: a lease is spent by its Release. Releasing it again —
// after another client took the lock, or after the same locker acquired
// again — gets ErrNotHeld and leaves the current holding alone.
func checkStaleLease(r *run) {
	c1, c2, c3 := r.client(1), r.client(2), r.client(3)
	old := c1.acquire("")
	c1.release(old, "")
	l2 := c2.acquire(" after client 1 released")
	c1.wantReleaseNotHeld(old, " of its released lease while client 2 holds the lock")
	r.stillHeld(l2, c3, " after client 1's duplicate Release")
	c2.release(l2, "")
	again := c1.acquire(" again")
	c1.wantReleaseNotHeld(old, " of its lease from an earlier holding")
	r.stillHeld(again, c3, " after client 1 released its earlier holding's lease")
	if ext, ok := c1.l.(locks.Extender); ok {
		if err := ext.Extend(r.ctx, old); !errors.Is(err, locks.ErrNotHeld) {
			r.t.Errorf("Extend(client 1) of its released lease = %v, want ErrNotHeld", err)
		}
	}
	c1.release(again, "")
	c1.wantReleaseNotHeld(again, " twice")
	l3 := c3.acquire(" after client 1's last release")
	c3.release(l3, "")
}

// stillHeld checks that l still holds the lock: its Err is nil and c cannot
// take the lock.
func (r *run) stillHeld(l *locks.Lease, c *client, when string) {
	r.t.Helper()
	if err := l.Err(); err != nil {
		r.t.Errorf("holder's lease.Err() = %v%s, want nil", err, when)
	}
	c.wantTaken(when)
}

// otherKeyClient is a client of the same pattern on another key.
func (r *run) otherKeyClient(n int) *client {
	r.t.Helper()
	conns := r.env.Backend.Connect(r.t)[:r.env.nodes()]
	r.warm(conns)
	l, err := r.env.New(conns, r.key+":other", r.options())
	if err != nil {
		r.t.Fatalf("New(client %d, another key) = %v, want a locker", n, err)
	}
	return &client{r: r, n: n, l: l}
}

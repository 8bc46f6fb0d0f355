package lockstest

import (
	"errors"

	"github.com/locksim/locksim/locks"
)

// ttlOf returns c's locker as a locks.TTLReader, or stops the test: every
// pattern reads its server-side TTL.
func (c *client) ttlOf() locks.TTLReader {
	c.r.t.Helper()
	tr, ok := c.l.(locks.TTLReader)
	if !ok {
		c.r.t.Fatalf("client %d's locker (%T) does not implement locks.TTLReader", c.n, c.l)
	}
	return tr
}

// wantTTLNotHeld checks that c's TTL of l fails with ErrNotHeld.
func (c *client) wantTTLNotHeld(l *locks.Lease, what string) {
	c.r.t.Helper()
	if d, err := c.ttlOf().TTL(c.r.ctx, l); !errors.Is(err, locks.ErrNotHeld) {
		c.r.t.Errorf("TTL(client %d) of %s = (%v, %v), want ErrNotHeld", c.n, what, d, err)
	}
}

// checkServerTTL: TTL reads the server's remaining time of a held lease,
// at most the TTL and above zero; it is owner-checked like Release (a
// foreign, altered, hand-built or nil lease gets ErrNotHeld and ends
// nothing); after Release it is ErrNotHeld; once the lock went to another
// client behind the holder's back (the key deleted while the holder's
// validity lasts), the server's check says ErrNotHeld and the lease is
// over.
func checkServerTTL(r *run) {
	c1, c2 := r.client(1), r.client(2)
	other := r.otherKeyClient(3)
	l1 := c1.acquire("")
	d, err := c1.ttlOf().TTL(r.ctx, l1)
	if err != nil || d <= 0 || d > r.ttl() {
		r.t.Errorf("TTL(client 1) of its lease = (%v, %v), want a duration in (0, %v]", d, err, r.ttl())
	}
	lo := other.acquire(" on another key")
	for _, tc := range []struct {
		what string
		by   *client
		l    *locks.Lease
	}{
		{"a lease of another Locker on another key", c1, lo},
		{"another client's lease on the same key", c2, l1},
		{"a hand-built copy of the holder's lease", c1, &locks.Lease{Key: l1.Key, Token: l1.Token, Fence: l1.Fence, Count: l1.Count}},
		{"the holder's lease with another Token", c1, altered(l1)},
		{"a nil lease", c1, nil},
	} {
		tc.by.wantTTLNotHeld(tc.l, tc.what)
		r.stillHeld(l1, c2, " after a TTL of "+tc.what)
	}
	if err := lo.Err(); err != nil {
		r.t.Errorf("the other key's lease.Err() = %v after another Locker read its TTL, want nil", err)
	}
	other.release(lo, "")
	c1.release(l1, "")
	c1.wantTTLNotHeld(l1, "its released lease")

	l2 := c1.acquire(" again")
	r.deleteKey(l2.Key)
	c2.acquire(" after the holder's key was deleted")
	c1.wantTTLNotHeld(l2, "a lease whose key was deleted and taken by another client")
	if err := l2.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after TTL found its lock taken, want ErrLockLost", err)
	}
}

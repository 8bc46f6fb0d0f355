package lockstest

import (
	"context"
	"errors"
	"fmt"

	"github.com/locksim/locksim/locks"
)

// checkMinorityDown: with a minority of nodes down the lock is still taken,
// with a validity in (0, TTL], still exclusive, and can be released.
func checkMinorityDown(r *run) {
	n := r.env.nodes()
	down := r.downNodes(n-n/2, n) // the last n/2 nodes
	c1, c2 := r.client(1), r.client(2)
	l1 := c1.acquire(down)
	if v := l1.Validity(); v <= 0 || v > r.ttl() {
		r.t.Errorf("lease.Validity() = %v%s, want in (0, %v]", v, down, r.ttl())
	}
	c2.wantTaken(down + " while client 1 holds the lock")
	r.releaseDown(c1, l1, down)
	l2 := c2.acquire(down + " after client 1 released")
	r.releaseDown(c2, l2, down)
}

// checkMajorityDown: with a majority of nodes down Acquire fails with
// ErrUnavailable — not ErrQuorum, which says the lock is taken — and says
// which nodes failed; once they are back it succeeds.
func checkMajorityDown(r *run) {
	n := r.env.nodes()
	down := r.downNodes(0, n/2+1)
	c1 := r.client(1)
	l, err := c1.l.Acquire(r.ctx)
	if err == nil {
		r.t.Cleanup(func() { _ = c1.l.Release(context.Background(), l) })
	}
	if !errors.Is(err, locks.ErrUnavailable) || errors.Is(err, locks.ErrQuorum) {
		r.t.Errorf("Acquire(client 1)%s = %v, want ErrUnavailable and not ErrQuorum", down, err)
	}
	var ne *locks.NodeError
	if !errors.As(err, &ne) {
		r.t.Errorf("Acquire(client 1)%s = %v, want an error holding a *locks.NodeError", down, err)
	}
	for i := range n/2 + 1 {
		r.env.Backend.Up(r.t, i)
	}
	c2 := r.client(2)
	l2 := c2.acquire(" after the nodes came back")
	c2.release(l2, "")
}

// downNodes takes nodes [from, to) down until the test ends, and describes
// it for messages.
func (r *run) downNodes(from, to int) string {
	r.t.Helper()
	for i := from; i < to; i++ {
		r.env.Backend.Down(r.t, i)
		r.t.Cleanup(func() { r.env.Backend.Up(r.t, i) })
	}
	return fmt.Sprintf(" with nodes %d..%d of %d down", from, to-1, r.env.nodes())
}

// releaseDown releases l while some nodes are down: the down nodes may be
// reported, as *locks.NodeError, but nothing else.
func (r *run) releaseDown(c *client, l *locks.Lease, down string) {
	r.t.Helper()
	err := c.l.Release(r.ctx, l)
	var ne *locks.NodeError
	if err != nil && !errors.As(err, &ne) {
		r.t.Errorf("Release(client %d)%s = %v, want nil or *locks.NodeError for the down nodes", c.n, down, err)
	}
	if err := l.Err(); !errors.Is(err, locks.ErrReleased) {
		r.t.Errorf("after Release(client %d)%s, lease.Err() = %v, want ErrReleased", c.n, down, err)
	}
}

// checkRedlockExtendResets: Extend re-sets the lease's key, with its token,
// on nodes that lost it (a minority restarted without their data) while a
// majority still holds it, so the quorum does not shrink: after the next
// restarts the key is still on a majority and the lock outlives its first
// TTL.
func checkRedlockExtendResets(r *run) {
	n := r.env.nodes()
	c1, c2 := r.client(1), r.client(2)
	ext, ok := c1.l.(locks.Extender)
	if !ok {
		r.t.Fatalf("%T does not implement locks.Extender", c1.l)
	}
	l1 := c1.acquire("")
	for i := range n / 2 { // a minority loses the key
		r.del(i, l1.Key)
	}
	// Extend with half a TTL of validity left: 0.5×TTL in (less what the
	// acquisition took, on a loaded machine, so the Extend is still in time).
	r.advance(max(0, l1.Validity()-r.ttl()/2))
	if err := ext.Extend(r.ctx, l1); err != nil {
		r.t.Fatalf("Extend(client 1) after nodes 0..%d of %d lost the key = %v, want nil (a majority still held it)", n/2-1, n, err)
	}
	for i := range n {
		if got, err := r.env.Backend.Admin(r.t, i).Get(r.ctx, l1.Key).Result(); got != l1.Token {
			r.t.Errorf("GET %q on node %d after Extend = %q (%v), want %q (extended or set again)", l1.Key, i, got, err, l1.Token)
		}
	}
	r.advance(r.ttl() * 6 / 10)
	c2.wantTaken(" at about 1.1×TTL, 0.6×TTL after an Extend that re-set a minority")
	if err := l1.Err(); err != nil {
		r.t.Errorf("lease.Err() = %v 0.6×TTL after Extend, want nil", err)
	}
	c1.release(l1, "")
}

// checkRedlockExtendLostMajority: an Extend after a majority of the nodes
// lost the key (restarted without their data, expired there by a clock
// jump: another owner may have taken, used and released the lock there
// meanwhile) is refused, ErrNotHeld and ErrQuorum, and sets nothing again:
// the lease is lost (Err ErrLockLost, Done closed) and its token given back
// on the nodes that still held it.
func checkRedlockExtendLostMajority(r *run) {
	n := r.env.nodes()
	c1 := r.client(1)
	ext, ok := c1.l.(locks.Extender)
	if !ok {
		r.t.Fatalf("%T does not implement locks.Extender", c1.l)
	}
	l1 := c1.acquire("")
	for i := range n/2 + 1 {
		r.del(i, l1.Key)
	}
	err := ext.Extend(r.ctx, l1)
	if !errors.Is(err, locks.ErrNotHeld) || !errors.Is(err, locks.ErrQuorum) {
		r.t.Errorf("Extend(client 1) after nodes 0..%d of %d lost the key = %v, want ErrNotHeld and ErrQuorum (a majority no longer held it)", n/2, n, err)
	}
	if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after a refused Extend, want ErrLockLost", err)
	}
	for i := range n {
		if got, _ := r.env.Backend.Admin(r.t, i).Exists(r.ctx, l1.Key).Result(); got != 0 {
			r.t.Errorf("node %d holds client 1's key after an Extend a majority refused, want it gone (not set again, or given back)", i)
		}
	}
}

// del deletes key on node i, behind the lockers' backs.
func (r *run) del(i int, key string) {
	r.t.Helper()
	if err := r.env.Backend.Admin(r.t, i).Del(r.ctx, key).Err(); err != nil {
		r.t.Fatalf("DEL %q on node %d: %v", key, i, err)
	}
}

// checkRedlockExtendLost: an Extend that misses its quorum because other
// owners hold a majority fails with ErrNotHeld and ErrQuorum, and the lease
// is lost at once (Err ErrLockLost, Done closed).
func checkRedlockExtendLost(r *run) {
	n := r.env.nodes()
	c1 := r.client(1)
	ext, ok := c1.l.(locks.Extender)
	if !ok {
		r.t.Fatalf("%T does not implement locks.Extender", c1.l)
	}
	l1 := c1.acquire("")
	for i := range n/2 + 1 {
		if err := r.env.Backend.Admin(r.t, i).Set(r.ctx, l1.Key, "another-owner", 0).Err(); err != nil {
			r.t.Fatalf("SET %q on node %d: %v", l1.Key, i, err)
		}
	}
	err := ext.Extend(r.ctx, l1)
	if !errors.Is(err, locks.ErrNotHeld) || !errors.Is(err, locks.ErrQuorum) {
		r.t.Errorf("Extend(client 1) with a majority held by another owner = %v, want ErrNotHeld and ErrQuorum", err)
	}
	select {
	case <-l1.Done():
	default:
		r.t.Errorf("lease.Done() open after a lost Extend")
	}
	if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after a lost Extend, want ErrLockLost", err)
	}
	for i := n/2 + 1; i < n; i++ {
		if got, _ := r.env.Backend.Admin(r.t, i).Exists(r.ctx, l1.Key).Result(); got != 0 {
			r.t.Errorf("node %d still holds client 1's key after a lost Extend, want it given back", i)
		}
	}
}

// checkRedlockReleaseLost: a Release that every node answers but fewer
// than a quorum of them held the lease's token at (a majority lost the
// key: restarted without their data, failed over) tells the holder that
// it had lost the lock — ErrNotHeld, the lease lost (Err ErrLockLost, Done
// closed) — and still gives the token back on the nodes that held it.
func checkRedlockReleaseLost(r *run) {
	n := r.env.nodes()
	c1 := r.client(1)
	l1 := c1.acquire("")
	for i := range n/2 + 1 {
		if err := r.env.Backend.Admin(r.t, i).Del(r.ctx, l1.Key).Err(); err != nil {
			r.t.Fatalf("DEL %q on node %d: %v", l1.Key, i, err)
		}
	}
	if err := c1.l.Release(r.ctx, l1); !errors.Is(err, locks.ErrNotHeld) {
		r.t.Errorf("Release(client 1) with its key on %d of %d nodes = %v, want ErrNotHeld (fewer than a quorum held it)", n-n/2-1, n, err)
	}
	select {
	case <-l1.Done():
	default:
		r.t.Errorf("lease.Done() open after a Release that found the quorum lost")
	}
	if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
		r.t.Errorf("lease.Err() = %v after a Release that found the quorum lost, want ErrLockLost", err)
	}
	for i := n/2 + 1; i < n; i++ {
		if got, _ := r.env.Backend.Admin(r.t, i).Exists(r.ctx, l1.Key).Result(); got != 0 {
			r.t.Errorf("node %d still holds client 1's key after Release, want it given back", i)
		}
	}
}

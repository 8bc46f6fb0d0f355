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

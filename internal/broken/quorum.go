package broken

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// quorum is the Redlock machinery both Redlock variants share, done as in
// locks.Redlock: parallel requests bounded by NodeTimeout, a majority,
// release on every node.
type quorum struct {
	rs      []locks.Redis
	b       base
	need    int
	timeout time.Duration
	hs      holdings
}

func newQuorum(rs []locks.Redis, key string, o locks.Options) (*quorum, error) {
	if len(rs) == 0 || len(rs)%2 == 0 {
		return nil, &locks.OptionError{Field: "nodes", Value: len(rs), Rule: "must be an odd number, at least 1"}
	}
	for i, r := range rs {
		if r == nil {
			return nil, &locks.OptionError{Field: fmt.Sprintf("nodes[%d]", i), Value: "nil", Rule: "must be set"}
		}
	}
	if o.NodeTimeout < 0 {
		return nil, &locks.OptionError{Field: "NodeTimeout", Value: o.NodeTimeout, Rule: "must not be negative"}
	}
	b, err := newBase(key, o)
	if err != nil {
		return nil, err
	}
	q := &quorum{rs: rs, b: b, need: len(rs)/2 + 1, timeout: o.NodeTimeout}
	if q.timeout == 0 {
		q.timeout = max(b.ttl/10, time.Millisecond)
	}
	return q, nil
}

// fanOut runs op on every node in parallel, each under the node timeout,
// and returns each node's error (nil for success).
func (q *quorum) fanOut(ctx context.Context, op func(ctx context.Context, i int, r locks.Redis) error) []error {
	errs := make([]error, len(q.rs))
	q.b.clk.Parallel(len(q.rs), func(i int) {
		nctx, cancel := q.b.clk.WithTimeout(ctx, q.timeout)
		defer cancel()
		errs[i] = op(nctx, i, q.rs[i])
	})
	return errs
}

// tally counts the nodes that succeeded and collects the real failures.
func (q *quorum) tally(errs []error) *locks.QuorumError {
	qe := &locks.QuorumError{Needed: q.need}
	for i, err := range errs {
		switch {
		case err == nil:
			qe.Locked++
		case !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, locks.ErrNotHeld):
			qe.Nodes = append(qe.Nodes, &locks.NodeError{Node: i, Err: err})
		}
	}
	return qe
}

func (q *quorum) releaseAll(ctx context.Context, key, token string) []error {
	return q.fanOut(ctx, func(ctx context.Context, _ int, r locks.Redis) error {
		n, err := runInt(ctx, r, releaseScript, []string{key}, token)
		if err == nil && n == 0 {
			return locks.ErrNotHeld
		}
		return err
	})
}

// fail gives the lock back on every node and reports the missed quorum.
func (q *quorum) fail(ctx context.Context, key, token string, qe *locks.QuorumError) error {
	q.releaseAll(context.WithoutCancel(ctx), key, token)
	return keyErr("acquire", key, qe)
}

// release deletes key on every node where it still holds l's token; it
// returns ErrNotHeld if no node held it.
func (q *quorum) release(ctx context.Context, key string, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", key, locks.ErrNotHeld)
	}
	qe := q.tally(q.releaseAll(ctx, key, l.Token))
	if qe.Locked == 0 {
		q.hs.end(l, locks.ErrLockLost)
		if len(qe.Nodes) == 0 {
			return keyErr("release", key, locks.ErrNotHeld)
		}
		return keyErr("release", key, fmt.Errorf("%w: %w", locks.ErrNotHeld, errors.Join(qe.Unwrap()...)))
	}
	q.hs.end(l, locks.ErrReleased)
	if len(qe.Nodes) > 0 {
		return keyErr("release", key, errors.Join(qe.Unwrap()...))
	}
	return nil
}

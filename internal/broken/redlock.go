package broken

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// The Redlock variants, redlock-novalidity and redlock-fenced-pernode, and
// the quorum machinery they share.

// RedlockNoValidity is the pitfall "redlock-novalidity": a Redlock that
// takes the lock as soon as a majority of nodes granted it, without
// checking validity = TTL − elapsed − drift (the seed's
// `if acquired_count >= quorum: return True`), and that hands the caller a
// lease valid for the full TTL from the moment the quorum is counted.
//
// When the requests were slow — a slow node, a pause, a clock that moved —
// the keys on the first nodes have already expired, or expire long before
// the lease says; a majority is free again while the holder's lease is
// still valid, and a second client acquires: two holders. The correct
// Redlock returns ErrQuorum (Expired) when no validity is left and
// measures the validity from the moment the requests were sent.
type RedlockNoValidity struct{ q *quorum }

var _ locks.Locker = (*RedlockNoValidity)(nil)

// NewRedlockNoValidity returns the redlock-novalidity variant over nodes.
func NewRedlockNoValidity(nodes []locks.Redis, key string, o locks.Options) (*RedlockNoValidity, error) {
	q, err := newQuorum(nodes, key, o)
	if err != nil {
		return nil, err
	}
	return &RedlockNoValidity{q}, nil
}

// Acquire takes the lock on a majority of nodes.
func (rl *RedlockNoValidity) Acquire(ctx context.Context) (*locks.Lease, error) {
	q := rl.q
	return q.b.Retry(ctx, func() (*locks.Lease, error) {
		token := q.b.Rand().Token()
		qe := q.tally(q.fanOut(ctx, func(ctx context.Context, _ int, r locks.Redis) error {
			ok, err := r.SetNX(ctx, q.b.key, token, q.b.TTL()).Result()
			if err == nil && !ok {
				return locks.ErrNotAcquired
			}
			return err
		}))
		if qe.Locked < q.need {
			return nil, q.fail(ctx, q.b.key, token, qe)
		}
		// The pitfall: no validity check, and the full TTL from now.
		l, g := locks.NewLease(q.b.Clock(), q.b.key, token, 0, 1, q.b.Clock().Now(), q.b.TTL())
		q.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the key on every node where it still holds the token.
func (rl *RedlockNoValidity) Release(ctx context.Context, l *locks.Lease) error {
	return rl.q.release(ctx, rl.q.b.key, l)
}

// RedlockFencedPerNode is the pitfall "redlock-fenced-pernode": a Redlock
// that issues fencing tokens by running the fenced acquire script (SET NX
// PX + INCR of a never-expiring counter) on every node and giving the
// lease the largest counter of the quorum.
//
// Each node counts only the acquisitions it took part in, and two quorums
// share only some nodes, so the largest counter of a later quorum can equal
// or fall below an earlier token: with nodes down in turn, {0,1,2} issues
// 1, {2,3,4} issues 2 and {0,1,3} issues 2 again. Fencing tokens are not
// monotonic across quorums, so a checking store accepts a stale holder's
// write. The correct Fenced draws every token from one counter; the
// correct Redlock issues no tokens at all.
type RedlockFencedPerNode struct {
	q     *quorum
	fence string
}

var _ locks.Locker = (*RedlockFencedPerNode)(nil)

// NewRedlockFencedPerNode returns the redlock-fenced-pernode variant named
// name over nodes; on each node its keys are locks.FencedLockKey(name) and
// locks.FencedCounterKey(name).
func NewRedlockFencedPerNode(nodes []locks.Redis, name string, o locks.Options) (*RedlockFencedPerNode, error) {
	if name == "" {
		return nil, &locks.OptionError{Field: "name", Value: `""`, Rule: "must not be empty"}
	}
	q, err := newQuorum(nodes, locks.FencedLockKey(name), o)
	if err != nil {
		return nil, err
	}
	return &RedlockFencedPerNode{q: q, fence: locks.FencedCounterKey(name)}, nil
}

// Acquire takes the lock on a majority of nodes, with the validity check,
// and returns the largest per-node counter as the lease's Fence.
func (rl *RedlockFencedPerNode) Acquire(ctx context.Context) (*locks.Lease, error) {
	q := rl.q
	return q.b.Retry(ctx, func() (*locks.Lease, error) {
		token := q.b.Rand().Token()
		start := q.b.Clock().Now()
		fences := make([]int64, len(q.rs))
		qe := q.tally(q.fanOut(ctx, func(ctx context.Context, i int, r locks.Redis) error {
			n, err := runInt(ctx, r, fencedAcquireScript, []string{q.b.key, rl.fence}, token, q.b.TTLms())
			if err == nil && n == 0 {
				return locks.ErrNotAcquired
			}
			fences[i] = n
			return err
		}))
		if qe.Locked < q.need || q.b.Validity(q.b.Clock().Since(start)) <= 0 {
			qe.Expired = qe.Locked >= q.need
			return nil, q.fail(ctx, q.b.key, token, qe)
		}
		l, g := locks.NewLease(q.b.Clock(), q.b.key, token, maxOf(fences), 1, start, q.b.Validity(0))
		q.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the lock key on every node where it still holds the
// token; the counters stay.
func (rl *RedlockFencedPerNode) Release(ctx context.Context, l *locks.Lease) error {
	return rl.q.release(ctx, rl.q.b.key, l)
}

func maxOf(xs []int64) int64 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = max(m, x)
	}
	return m
}

// quorum is the Redlock machinery both Redlock variants share, done as in
// locks.Redlock: parallel requests bounded by NodeTimeout, a majority,
// release on every node.
type quorum struct {
	rs      []locks.Redis
	b       conf
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
	b, err := newConf(key, o)
	if err != nil {
		return nil, err
	}
	return &quorum{rs: rs, b: b, need: len(rs)/2 + 1, timeout: b.NodeTimeout()}, nil
}

// fanOut runs op on every node in parallel, each under the node timeout,
// and returns each node's error (nil for success).
func (q *quorum) fanOut(ctx context.Context, op func(ctx context.Context, i int, r locks.Redis) error) []error {
	errs := make([]error, len(q.rs))
	q.b.Clock().Parallel(len(q.rs), func(i int) {
		nctx, cancel := q.b.Clock().WithTimeout(ctx, q.timeout)
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

package locks

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Redlock locks the same key on N independent Redis nodes (N odd) and holds
// the lock when a majority (N/2+1) granted it in time. The requests go to
// all nodes in parallel, each bounded by NodeTimeout, so an acquisition
// costs about one round trip. The validity returned to the caller is
// TTL − elapsed − (TTL × DriftFactor + 2ms); if the quorum is missed or no
// validity is left, the lock is released on every node before the next
// attempt (retries use backoff with jitter, so competing clients do not
// livelock).
//
// A holder extends the lock with Extend or ExtendTTL (see redlock_extend.go),
// or has it renewed in the background: NewRedlockWatchdog.
//
// Redlock assumes bounded clock drift and bounded pauses. It does not issue
// fencing tokens: per-node counters would not be monotonic across quorums.
type Redlock struct {
	nodes  []Redis
	key    string
	c      config
	quorum int
	rn     *renewer // the renewal loop of a Redlock watchdog; nil otherwise
	fence  string   // each node's fence counter, with Pitfall.PerNodeFence; else ""
}

var (
	_ Locker      = (*Redlock)(nil)
	_ TTLExtender = (*Redlock)(nil)
)

// NewRedlock returns a Redlock over nodes (an odd number, at least 1).
func NewRedlock(nodes []Redis, key string, o Options) (*Redlock, error) {
	if len(nodes) == 0 {
		return nil, &OptionError{"nodes", 0, "must be at least 1"}
	}
	if len(nodes)%2 == 0 {
		return nil, &OptionError{"nodes", len(nodes), "must be odd (an even count tolerates no more failures than one node fewer)"}
	}
	for i, n := range nodes {
		if isNil(n) {
			return nil, &OptionError{fmt.Sprintf("nodes[%d]", i), nilName(n), "must be set"}
		}
	}
	if key == "" {
		return nil, &OptionError{"key", `""`, "must not be empty"}
	}
	if err := o.noOwner("Redlock"); err != nil {
		return nil, err
	}
	c, err := o.resolve()
	if err != nil {
		return nil, err
	}
	rl := &Redlock{nodes: nodes, key: key, c: c, quorum: len(nodes)/2 + 1}
	if c.pit != nil && c.pit.PerNodeFence {
		rl.key, rl.fence = FencedLockKey(key), FencedCounterKey(key)
	}
	return rl, nil
}

// Quorum is the number of nodes that must grant the lock.
func (rl *Redlock) Quorum() int { return rl.quorum }

// Acquire takes the lock on a majority of nodes; a Redlock watchdog hands
// the holding to its renewal loop.
func (rl *Redlock) Acquire(ctx context.Context) (*Lease, error) {
	l, err := rl.c.counted(ctx, func() (*Lease, error) { return rl.try(ctx) })
	if err == nil && rl.rn != nil {
		rl.rn.add(l, func(ctx context.Context) (bool, error) { return rl.renew(ctx, l) })
	}
	return l, err
}

func (rl *Redlock) try(ctx context.Context) (*Lease, error) {
	token := rl.c.Rand.Token()
	start := rl.c.Clock.Now()
	fences := rl.nodeFences()
	errs := rl.fanOut(ctx, func(ctx context.Context, i int, r Redis) error {
		switch {
		case fences != nil:
			return rl.acquireFenced(ctx, i, r, token, fences)
		case rl.c.pit != nil && rl.c.pit.NodeSetNX:
			return rl.acquireSetNX(ctx, r, token)
		}
		n, err := runInt(ctx, r, redlockAcquireScript, []string{rl.key}, token, rl.c.ttlMS)
		if err == nil && n == 0 {
			return ErrNotAcquired
		}
		return err
	})
	locked, qe := rl.tally(errs)
	valid := rl.c.validity(rl.c.Clock.Since(start))
	if locked >= rl.quorum && valid > 0 {
		from, v := rl.c.granted(start)
		return issued(rl, rl.key, token, largest(fences), 1, newHold(rl.c.Clock, from, v)), nil
	}
	qe.Expired = locked >= rl.quorum
	rl.releaseAll(context.WithoutCancel(ctx), token)
	return nil, wrap("acquire", rl.key, qe)
}

// fanOut runs op on every node in parallel, each under NodeTimeout, and
// returns each node's error (nil for success).
func (rl *Redlock) fanOut(ctx context.Context, op func(context.Context, int, Redis) error) []error {
	errs := make([]error, len(rl.nodes))
	rl.c.Clock.Parallel(len(rl.nodes), func(i int) {
		nctx, cancel := rl.c.Clock.WithTimeout(ctx, rl.c.NodeTimeout)
		defer cancel()
		errs[i] = op(nctx, i, rl.nodes[i])
	})
	return errs
}

func (rl *Redlock) tally(errs []error) (int, *QuorumError) {
	qe := &QuorumError{Needed: rl.quorum, Total: len(errs)}
	for i, err := range errs {
		switch {
		case err == nil:
			qe.Locked++
		case errors.Is(err, ErrNotAcquired) || errors.Is(err, ErrNotHeld):
			qe.Taken++
		default:
			qe.Nodes = append(qe.Nodes, &NodeError{Node: i, Err: classify(err)})
		}
	}
	return qe.Locked, qe
}

func (rl *Redlock) releaseAll(ctx context.Context, token string) []error {
	return rl.fanOut(ctx, func(ctx context.Context, _ int, r Redis) error {
		n, err := runInt(ctx, r, releaseScript, []string{rl.key}, token)
		if err == nil && n == 0 {
			return ErrNotHeld
		}
		return err
	})
}

// Release deletes the key on every node where it still holds the lease's
// token. It returns ErrNotHeld if no node held it, or if the lease was
// still valid, every node answered and fewer than a quorum held it — the
// lock had been lost (a majority of the nodes restarted without the key
// or failed over), which the lease then reports too (Err ErrLockLost) —
// and the node errors if some nodes could not be reached. A second
// Release of a lease whose first reached only some nodes frees the rest.
func (rl *Redlock) Release(ctx context.Context, l *Lease) error {
	if err := verifyRelease(l, rl, rl.key); err != nil {
		return wrap("release", rl.key, err)
	}
	live := !l.h.ended()
	errs := rl.releaseAll(ctx, l.id.token)
	released, qe := rl.tally(errs)
	switch {
	case released > 0 && len(qe.Nodes) == 0 && (released >= rl.quorum || !live):
		rl.c.Metrics.released()
		l.spend()
		l.h.end(ErrReleased)
		return nil
	case released > 0 && len(qe.Nodes) == 0:
		rl.c.Metrics.lost()
		l.h.end(ErrLockLost)
		return wrap("release", rl.key, fmt.Errorf("%w: the lease's token was on %d of %d nodes, fewer than the quorum of %d",
			ErrNotHeld, released, len(errs), rl.quorum))
	case released > 0:
		rl.c.Metrics.released()
		l.h.endPartly(ErrReleased)
		return wrap("release", rl.key, errors.Join(nodeErrs(qe)...))
	case len(qe.Nodes) > 0:
		l.h.endPartly(ErrLockLost)
		return wrap("release", rl.key, fmt.Errorf("%w: %w", ErrNotHeld, errors.Join(nodeErrs(qe)...)))
	default:
		rl.c.Metrics.lost()
		l.h.end(ErrLockLost)
		return wrap("release", rl.key, ErrNotHeld)
	}
}

func nodeErrs(qe *QuorumError) []error { return qe.Unwrap() }

// Validity returns what a grant obtained after elapsed leaves the caller;
// exported for documentation and tests of the drift allowance.
func (rl *Redlock) Validity(elapsed time.Duration) time.Duration { return rl.c.validity(elapsed) }

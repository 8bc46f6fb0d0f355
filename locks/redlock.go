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
// validity is left, the attempt's token is given back before the next
// attempt on every node that did not refuse it: those that granted and
// those whose reply was lost or that failed (the request may have run
// there), but not those that answered that another owner holds the key,
// which wrote nothing (retries use backoff with jitter, so competing
// clients do not livelock).
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
	keys   []string // {key}, the scripts' KEYS (read-only, shared by every call)
	ttlArg any      // the TTL in ms, boxed once for the scripts' ARGV
	all    []int    // 0..N-1: the nodes a full fan-out asks
}

var (
	_ Locker      = (*Redlock)(nil)
	_ TTLExtender = (*Redlock)(nil)
)

// NewRedlock returns a Redlock over nodes (an odd number, at least 1, of
// distinct servers: the same client twice, or two clients whose options
// name a common address, are refused with an *OptionError, since one
// server counted twice would make a majority of it).
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
		if err := o.checkContextTimeout(fmt.Sprintf("nodes[%d]", i), n); err != nil {
			return nil, err
		}
	}
	if err := checkDistinct(nodes); err != nil {
		return nil, err
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
	rl := &Redlock{nodes: nodes, key: key, c: c, quorum: len(nodes)/2 + 1, ttlArg: c.ttlMS}
	if c.pit != nil && c.pit.PerNodeFence {
		rl.key, rl.fence = FencedLockKey(key), FencedCounterKey(key)
	}
	rl.keys = []string{rl.key}
	for i := range nodes {
		rl.all = append(rl.all, i)
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
	args := []any{token, rl.ttlArg}
	errs := rl.fanOut(ctx, nil, func(ctx context.Context, i int, r Redis) error {
		switch {
		case fences != nil:
			return rl.acquireFenced(ctx, i, r, token, fences)
		case rl.c.pit != nil && rl.c.pit.NodeSetNX:
			return rl.acquireSetNX(ctx, r, token)
		}
		n, err := runInt(ctx, r, redlockAcquireScript, rl.keys, args...)
		if err == nil && n == 0 {
			return ErrNotAcquired
		}
		return err
	})
	locked := succeeded(errs)
	valid := rl.c.validity(rl.c.Clock.Since(start))
	if locked >= rl.quorum && valid > 0 {
		from, v := rl.c.granted(start)
		return issued(rl, rl.key, token, largest(fences), 1, newHold(rl.c.Clock, from, v)), nil
	}
	qe := rl.tally(errs)
	qe.Expired = locked >= rl.quorum
	rl.giveBack(context.WithoutCancel(ctx), token, errs)
	return nil, wrap("acquire", rl.key, qe)
}

// fanOut runs op in parallel on every node, or, given the answers of an
// earlier fan-out (after), on the nodes that did not refuse it, and
// returns each node's error (nil for success and for a node not asked).
// The calls start together (Clock.Parallel) under one deadline,
// NodeTimeout from now, so each node's wait is still bounded by
// NodeTimeout and no slow node spends another's budget, at the cost of
// one timer a fan-out instead of one a node.
func (rl *Redlock) fanOut(ctx context.Context, after []error, op func(context.Context, int, Redis) error) []error {
	ask := rl.all
	if after != nil {
		ask = unrefused(after)
	}
	return rl.fanOutTo(ctx, ask, op)
}

// fanOutTo runs op in parallel on the nodes ask, as fanOut does, and
// returns each node's error (nil for success and for a node not asked).
func (rl *Redlock) fanOutTo(ctx context.Context, ask []int, op func(context.Context, int, Redis) error) []error {
	errs := make([]error, len(rl.nodes))
	if len(ask) == 0 {
		return errs
	}
	nctx, cancel := rl.c.Clock.WithTimeout(ctx, rl.c.NodeTimeout)
	defer cancel()
	rl.c.Clock.Parallel(len(ask), func(k int) {
		i := ask[k]
		errs[i] = op(nctx, i, rl.nodes[i])
	})
	return errs
}

// refused reports whether a node's answer was a definite refusal: the key
// held by another token there, so the request wrote nothing.
func refused(err error) bool { return errors.Is(err, ErrNotAcquired) || errors.Is(err, ErrNotHeld) }

// unrefused is the nodes whose answer in errs was not a definite refusal:
// those that granted, and those whose outcome is unknown (an error, a
// lost or late reply), where the request may have taken effect.
func unrefused(errs []error) []int {
	var out []int
	for i, err := range errs {
		if !refused(err) {
			out = append(out, i)
		}
	}
	return out
}

// succeeded is the number of nodes that granted (nil errors).
func succeeded(errs []error) int {
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		}
	}
	return n
}

// tally sorts a fan-out's answers into a QuorumError.
func (rl *Redlock) tally(errs []error) *QuorumError {
	qe := &QuorumError{Needed: rl.quorum, Total: len(errs)}
	for i, err := range errs {
		switch {
		case err == nil:
			qe.Locked++
		case refused(err):
			qe.Taken++
		default:
			qe.Nodes = append(qe.Nodes, &NodeError{Node: i, Err: classify(err)})
		}
	}
	return qe
}

// releaseAll deletes token's key on every node that holds it; see
// giveBack for the nodes that may.
func (rl *Redlock) releaseAll(ctx context.Context, token string) []error {
	return rl.release(ctx, token, nil)
}

// giveBack gives token back after a fan-out that did not make (or keep)
// the lock, on the nodes where that fan-out's request may have written
// it: every node that did not answer a definite refusal. A node that
// refused holds another owner's key and nothing of token's; one whose
// reply was lost, or that failed, may have run the request, so it gets
// the release too (the rule of the Redlock description, "even the
// instances it believed it was not able to lock", kept for them).
func (rl *Redlock) giveBack(ctx context.Context, token string, after []error) {
	rl.release(ctx, token, after)
}

func (rl *Redlock) release(ctx context.Context, token string, after []error) []error {
	args := []any{token}
	return rl.fanOut(ctx, after, func(ctx context.Context, _ int, r Redis) error {
		n, err := runInt(ctx, r, releaseScript, rl.keys, args...)
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
	// A Redlock watchdog renews it no more, whatever the outcome, and a
	// renewal in flight ends first: its extension sets the key again where
	// it is missing, and landing after the release it would hold the
	// freed nodes for a TTL.
	l.h.letGoQuiet(ctx, rl.c.Clock, rl.c.RenewEvery+rl.c.NodeTimeout)
	errs := rl.releaseAll(ctx, l.id.token)
	if succeeded(errs) == len(errs) {
		rl.c.Metrics.released()
		l.spend()
		l.h.end(ErrReleased)
		return nil
	}
	qe := rl.tally(errs)
	released := qe.Locked
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

package simprop

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/internal/catalog"
	"github.com/locksim/locksim/locks"
)

// Nested returns p with every critical section entered twice: each
// Acquire takes the lock, re-enters it (the same locker, so the same
// owner), and leaves the inner entry before handing the outer lease to the
// workload, which then reads, works, writes and releases under it. It is
// how a reentrant lock is used — a helper that takes the lock its caller
// already holds — and the only way the simulator's workload, which takes
// the lock once per section, can tell a counted re-entry from an uncounted
// one: the inner release must leave the outer section holding the lock.
func Nested(p catalog.Pattern) catalog.Pattern {
	q := p
	q.New = func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		l, err := p.New(nodes, key, o)
		if err != nil {
			return nil, err
		}
		return nesting{l}, nil
	}
	return q
}

type nesting struct{ l locks.Locker }

// Acquire takes the outer entry, then the inner one, and releases the
// inner one. If the inner steps fail, or took so long that the outer
// lease is no longer valid, the outer entry is given back and the error
// returned: the section does not run (as the patterns themselves refuse a
// grant that arrives after its validity).
func (n nesting) Acquire(ctx context.Context) (*locks.Lease, error) {
	outer, err := n.l.Acquire(ctx)
	if err != nil {
		return nil, err
	}
	inner, err := n.l.Acquire(ctx)
	if err == nil {
		err = n.l.Release(ctx, inner)
	}
	if err == nil {
		err = outer.Err() // the inner steps may have outlasted the validity
	}
	if err != nil {
		_ = n.l.Release(context.WithoutCancel(ctx), outer)
		return nil, fmt.Errorf("nested entry: %w", err)
	}
	return outer, nil
}

// Release leaves the outer entry.
func (n nesting) Release(ctx context.Context, l *locks.Lease) error { return n.l.Release(ctx, l) }

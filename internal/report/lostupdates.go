package report

import (
	"context"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// withoutTokens returns p with its fencing tokens withheld: every lease
// comes back with Fence 0, so the simulated store (which checks a token
// only when a request carries one) accepts every write, and the oracles
// judge no token. The lock itself behaves exactly as p's, so the same seed
// measures the lost updates the run would have had without fencing.
func withoutTokens(p pattern.Pattern) pattern.Pattern {
	q := p
	q.New = func(nodes []locks.Redis, key string, o locks.Options) (locks.Locker, error) {
		l, err := p.New(nodes, key, o)
		if err != nil {
			return nil, err
		}
		return tokenless{l}, nil
	}
	return q
}

// tokenless drops the fencing token of every lease its Locker grants.
type tokenless struct{ locks.Locker }

func (t tokenless) Acquire(ctx context.Context) (*locks.Lease, error) {
	l, err := t.Locker.Acquire(ctx)
	if l != nil {
		l.Fence = 0
	}
	return l, err
}

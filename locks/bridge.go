package locks

import (
	"context"
	"time"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/internal/lockbridge"
	pf "github.com/locksim/locksim/internal/pitfall"
)

// What this package lends the rest of the module through lockbridge: the
// setter of a deliberate mistake (package pitfall), the kit's internals
// (package lockkit) and the lock code as built (sourceFiles).
func init() {
	lockbridge.Lend(lockbridge.Lent{
		Code: sourceFiles,
		WithPitfall: func(o Options, p pf.Pitfall) Options {
			o.pitfall = &p
			return o
		},
		NewLease: newKitLease,
		Resolve:  resolveForKit,
	})
}

// newKitLease makes a lease for a Locker built outside this package.
func newKitLease(s lockbridge.LeaseSpec) (*Lease, lockbridge.Hold) {
	clk := s.Clock
	if clk == nil {
		clk = clock.Real{}
	}
	h := newHold(clk, s.Start, s.Valid)
	return &Lease{Key: s.Key, Token: s.Token, Fence: s.Fence, Count: s.Count, h: h}, kitHold{h}
}

// kitHold is a hold's control side as lockkit's Holding drives it.
type kitHold struct{ h *hold }

func (k kitHold) Renewed(start time.Time, valid time.Duration) { k.h.extend(start, valid) }
func (k kitHold) End(err error)                                { k.h.end(err) }

// resolveForKit resolves o as the patterns do (renews: as those that
// renew), for a Locker built outside this package.
func resolveForKit(o Options, renews bool) (lockbridge.Resolved[Options, *Lease], error) {
	o.renews = renews
	c, err := o.resolve()
	if err == nil && renews {
		err = c.resolveRenew()
	}
	if err != nil {
		return lockbridge.Resolved[Options, *Lease]{}, err
	}
	return lockbridge.Resolved[Options, *Lease]{
		Options:  c.Options,
		TTLms:    c.ttlMS,
		Validity: c.validity,
		Retry: func(ctx context.Context, try func() (*Lease, error)) (*Lease, error) {
			return c.counted(ctx, try)
		},
	}, nil
}

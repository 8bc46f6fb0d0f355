package locks

import (
	"time"

	"github.com/locksim/locksim/clock"
)

// Holding is the control side of a lease made by NewLease: the Locker that
// made the lease records renewals and ends the holding through it.
type Holding struct{ h *hold }

// NewLease returns a lease, and its Holding, for a Locker implemented
// outside this package (a test double, a deliberately broken variant kept
// to prove the checks): a Lease built any other way has no validity and
// cannot report a loss. The holder may rely on the lease for valid,
// measured on clk (clock.Real if nil) from start, until the Holding is
// ended or renewed.
func NewLease(clk clock.Clock, key, token string, fence int64, count int, start time.Time, valid time.Duration) (*Lease, *Holding) {
	if clk == nil {
		clk = clock.Real{}
	}
	h := newHold(clk, start, valid)
	return &Lease{Key: key, Token: token, Fence: fence, Count: count, h: h}, &Holding{h}
}

// Renewed records a renewal sent at start that leaves valid from start. It
// has no effect once the holding has ended.
func (g *Holding) Renewed(start time.Time, valid time.Duration) { g.h.extend(start, valid) }

// End marks the holding over with err (ErrReleased on release, ErrLockLost
// on a loss) and closes the lease's Done. The first reason wins.
func (g *Holding) End(err error) { g.h.end(err) }

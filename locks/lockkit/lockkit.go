// Package lockkit is the kit for building a Locker outside package locks
// (a lock of your own to check with locksim, a test double, a port of
// another lock's code) that configures, retries, judges validity and
// reports a loss exactly as the patterns of package locks do, and differs
// from them only where it means to.
//
// Resolve turns Options into a Config (defaults and checks as the
// patterns'); NewLease makes the Lease a Locker hands out, with validity
// and a Done that closes on a loss, and its Holding, through which the
// Locker records renewals and ends the holding. The Lua the patterns run
// is in package scripts.
package lockkit

import (
	"context"
	"time"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/internal/lockbridge"
	"github.com/locksim/locksim/locks"
)

// Config is a resolved locks.Options: the defaults filled in and every
// check passed, exactly as the patterns resolve them.
type Config struct {
	r lockbridge.Resolved[locks.Options, *locks.Lease]
}

// Resolve checks o and fills in its defaults as every pattern that does
// not renew does (RenewEvery is refused); the error is a
// *locks.OptionError naming the field and value.
func Resolve(o locks.Options) (Config, error) { return resolve(o, false) }

// ResolveRenewing is Resolve for a Locker that renews (as Watchdog and
// Service do): RenewEvery is taken, checked and defaulted (TTL/3) too.
func ResolveRenewing(o locks.Options) (Config, error) { return resolve(o, true) }

func resolve(o locks.Options, renews bool) (Config, error) {
	r, err := lockbridge.Resolve[locks.Options, *locks.Lease](o, renews)
	if err != nil {
		return Config{}, err
	}
	return Config{r}, nil
}

// Options returns the resolved options: every default filled in (the
// Clock, the Rand, the TTL truncated to whole milliseconds, RenewEvery
// from ResolveRenewing, ...).
func (c Config) Options() locks.Options { return c.r.Options }

// Clock is the resolved time seam.
func (c Config) Clock() clock.Clock { return c.r.Options.Clock }

// Rand is the resolved source of tokens and jitter.
func (c Config) Rand() locks.Rand { return c.r.Options.Rand }

// TTL is the lease time sent to Redis, truncated to whole milliseconds.
func (c Config) TTL() time.Duration { return c.r.Options.TTL }

// TTLms is the TTL in milliseconds, as PX and PEXPIRE take it.
func (c Config) TTLms() int64 { return c.r.TTLms }

// Validity is what a grant obtained after elapsed leaves the holder: TTL −
// elapsed − the drift allowance (TTL × DriftFactor + 2ms).
func (c Config) Validity(elapsed time.Duration) time.Duration { return c.r.Validity(elapsed) }

// Retry calls try as every pattern's Acquire does: until it succeeds,
// fails with an error another attempt cannot cure, the attempts run out,
// or ctx is done, sleeping the jittered backoff between attempts,
// counting into Metrics. An error after ctx ended matches the context's
// error, and locks.ErrNotAcquired if any attempt found the lock taken.
func (c Config) Retry(ctx context.Context, try func() (*locks.Lease, error)) (*locks.Lease, error) {
	return c.r.Retry(ctx, try)
}

// LeaseSpec is what NewLease makes a lease of.
type LeaseSpec struct {
	// Clock measures the validity; clock.Real if nil.
	Clock clock.Clock
	// Key, Token and Fence are the lease's (Lease.Key, Token, Fence).
	Key   string
	Token string
	Fence int64
	// Count is the hold count a reentrant Locker reports (Lease.Count); 1
	// for the others.
	Count int
	// Start and Valid: the holder may rely on the lease for Valid,
	// measured on Clock from Start (the moment its request was sent),
	// until the Holding is ended or renewed.
	Start time.Time
	Valid time.Duration
}

// NewLease returns a lease made to spec, and its Holding. A Lease built any
// other way has no validity and cannot report a loss.
func NewLease(spec LeaseSpec) (*locks.Lease, *Holding) {
	l, h := lockbridge.NewLease[*locks.Lease](lockbridge.LeaseSpec(spec))
	return l, &Holding{h}
}

// Holding is the control side of a lease made by NewLease: the Locker that
// made the lease records renewals and ends the holding through it.
type Holding struct{ h lockbridge.Hold }

// Renewed records a renewal sent at start that leaves valid from start. It
// has no effect once the holding has ended.
func (g *Holding) Renewed(start time.Time, valid time.Duration) { g.h.Renewed(start, valid) }

// End marks the holding over with err (locks.ErrReleased on release,
// locks.ErrLockLost on a loss) and closes the lease's Done. The first
// reason wins.
func (g *Holding) End(err error) { g.h.End(err) }

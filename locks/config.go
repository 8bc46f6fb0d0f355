package locks

import (
	"context"
	"time"

	"github.com/locksim/locksim/clock"
)

// Config is a resolved Options: the defaults filled in and every check
// passed, exactly as the patterns of this package resolve them. It is for
// Lockers built outside this package (a test double, a port of another
// lock's code kept to prove the checks) that must configure, retry and
// judge validity as the patterns do, and differ from them only where they
// mean to. A pattern with one step changed needs no Locker of its own:
// see Pitfall.
type Config struct{ c config }

// Resolve checks o and fills in its defaults as every pattern that does
// not renew does (RenewEvery is refused); the error is an *OptionError
// naming the field and value.
func (o Options) Resolve() (Config, error) {
	c, err := o.resolve()
	if err != nil {
		return Config{}, err
	}
	return Config{c}, nil
}

// ResolveRenewing is Resolve for a pattern that renews (as Watchdog and
// Service do): RenewEvery is taken, checked and defaulted too.
func (o Options) ResolveRenewing() (Config, error) {
	o.renews = true
	c, err := o.resolve()
	if err != nil {
		return Config{}, err
	}
	if err := c.resolveRenew(); err != nil {
		return Config{}, err
	}
	return Config{c}, nil
}

// Options returns the resolved options: every default filled in.
func (c Config) Options() Options { return c.c.Options }

// Clock is the resolved time seam.
func (c Config) Clock() clock.Clock { return c.c.Clock }

// Rand is the resolved source of tokens and jitter.
func (c Config) Rand() Rand { return c.c.Rand }

// TTL is the lease time sent to Redis, truncated to whole milliseconds.
func (c Config) TTL() time.Duration { return c.c.TTL }

// TTLms is the TTL in milliseconds, as PX and PEXPIRE take it.
func (c Config) TTLms() int64 { return c.c.ttlMS }

// RenewEvery is the renewal period resolved by ResolveRenewing (default
// TTL/3); 0 from Resolve, which refuses one. A Locker that renews, built
// outside this package, renews at it.
func (c Config) RenewEvery() time.Duration { return c.c.RenewEvery }

// Validity is what a grant obtained after elapsed leaves the holder: TTL −
// elapsed − the drift allowance (TTL × DriftFactor + 2ms).
func (c Config) Validity(elapsed time.Duration) time.Duration { return c.c.validity(elapsed) }

// Retry calls try as every pattern's Acquire does: until it succeeds,
// fails with an error another attempt cannot cure, the attempts run out,
// or ctx is done, sleeping the jittered exponential backoff between
// attempts, counting into Metrics. An error after ctx ended matches the
// context's error, and ErrNotAcquired (ErrQuorum) if any attempt found the
// lock taken.
func (c Config) Retry(ctx context.Context, try func() (*Lease, error)) (*Lease, error) {
	return c.c.counted(ctx, try)
}

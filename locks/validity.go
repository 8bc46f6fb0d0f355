package locks

import (
	"context"
	"fmt"
	"time"
)

// minDrift is the constant part of the drift allowance.
const minDrift = 2 * time.Millisecond

// validity is what a grant obtained after elapsed leaves the holder.
func (c *config) validity(elapsed time.Duration) time.Duration {
	return c.validityFor(c.TTL, elapsed)
}

// validityFor is what a grant or extension to ttl, obtained after elapsed,
// leaves the holder.
func (c *config) validityFor(ttl, elapsed time.Duration) time.Duration {
	if v, ok := c.pitfallValidity(ttl, elapsed); ok {
		return v
	}
	return ttl - elapsed - c.drift(ttl)
}

// drift is the drift allowance of a TTL: ttl × DriftFactor + 2ms.
func (c *config) drift(ttl time.Duration) time.Duration {
	return time.Duration(float64(ttl)*c.DriftFactor) + minDrift
}

// extendTTL checks the TTL an ExtendTTL asks for and returns it truncated
// to whole milliseconds: it must leave validity after its drift allowance.
func (c *config) extendTTL(ttl time.Duration) (time.Duration, error) {
	t := ttl.Truncate(time.Millisecond)
	if d := c.drift(t); t <= d {
		return 0, &OptionError{"ttl", ttl, fmt.Sprintf("must exceed its drift allowance (ttl × DriftFactor + %v = %v): the holder would get no validity", minDrift, d)}
	}
	return t, nil
}

// errLate is why a grant whose reply came too late to leave any validity
// failed.
var errLate = fmt.Errorf("%w: granted after its validity ran out", ErrNotAcquired)

// inTime checks that a grant to a request sent at start leaves the holder
// some validity. If the reply came too late, it gives the grant back
// (giveBack runs whatever ctx says, bounded by the TTL, and holds the
// caller only while ctx lasts, and CleanupGrace past its end: see owe) and
// returns errLate.
func (c *config) inTime(ctx context.Context, start time.Time, giveBack func(context.Context) error) error {
	if c.validity(c.Clock.Since(start)) > 0 {
		return nil
	}
	c.owe(ctx, giveBack, nil)
	return errLate
}

// lease is the lease of a new holding granted to a request sent at start,
// valid for the TTL less the drift allowance from start.
func (c *config) lease(by any, key, token string, fence int64, start time.Time) *Lease {
	from, valid := c.granted(start)
	return issued(by, key, token, fence, 1, newHold(c.Clock, from, valid))
}

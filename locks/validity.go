package locks

import (
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

// lease turns a grant for a request sent at start into a lease, or reports
// that the reply came too late to leave any validity.
func (c *config) lease(by any, key, token string, start time.Time) (*Lease, bool) {
	if c.validity(c.Clock.Since(start)) <= 0 {
		return nil, false
	}
	return issued(by, key, token, 0, 1, newHold(c.Clock, start, c.validity(0))), true
}

var errLate = fmt.Errorf("%w: granted after its validity ran out", ErrNotAcquired)

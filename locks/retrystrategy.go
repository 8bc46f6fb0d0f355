package locks

import (
	"fmt"
	"time"
)

// RetryStrategy decides, after a failed acquisition attempt, whether to try
// again and how long to wait first. Every pattern's retry loop asks it
// (Options.RetryStrategy); without one, the Retry field's bounded
// exponential backoff with jitter is used, as ExponentialBackoff and
// LimitRetry would give it.
//
// Next is called after attempt number attempt (1 for the first) failed
// with the lock taken or a transient error; it returns the wait before the
// next attempt and true, or false to give up (Acquire then returns the last
// attempt's error). Jitter must be drawn from rnd, the locker's Rand seam
// (Options.Rand), never from a global source, so that a seeded run
// replays. Next may be called from several goroutines at once (one per
// concurrent Acquire), so a strategy must not keep per-call state. The
// context ends the loop whatever Next says.
type RetryStrategy interface {
	Next(attempt int, rnd Rand) (wait time.Duration, again bool)
}

// NoRetry returns a strategy that never retries: Acquire makes one attempt.
func NoRetry() RetryStrategy { return noRetry{} }

type noRetry struct{}

func (noRetry) Next(int, Rand) (time.Duration, bool) { return 0, false }

// ConstantBackoff returns a strategy that retries, until the context is
// done, every d (no jitter). d must not be negative.
func ConstantBackoff(d time.Duration) RetryStrategy { return constantBackoff{d} }

type constantBackoff struct{ d time.Duration }

func (c constantBackoff) Next(int, Rand) (time.Duration, bool) { return c.d, true }

// LinearBackoff returns a strategy that retries, until the context is
// done, after attempt × step, capped at maxWait (no jitter).
func LinearBackoff(step, maxWait time.Duration) RetryStrategy {
	return linearBackoff{step, maxWait}
}

type linearBackoff struct{ step, max time.Duration }

func (l linearBackoff) Next(attempt int, _ Rand) (time.Duration, bool) {
	if attempt <= 0 || l.step <= 0 {
		return 0, true
	}
	if time.Duration(attempt) > l.max/l.step {
		return l.max, true
	}
	return min(time.Duration(attempt)*l.step, l.max), true
}

// ExponentialBackoff returns a strategy that retries, until the context is
// done, after a wait that doubles from base up to maxWait, drawn uniformly
// from [w/2, w) so that competing clients spread out: the default backoff
// of the Retry field.
func ExponentialBackoff(base, maxWait time.Duration) RetryStrategy {
	return expBackoff{base, maxWait}
}

type expBackoff struct{ base, max time.Duration }

func (e expBackoff) Next(attempt int, rnd Rand) (time.Duration, bool) {
	d := e.base
	for i := 1; i < attempt && d < e.max; i++ {
		d *= 2
	}
	d = min(d, e.max)
	half := d / 2
	if half <= 0 {
		return d, true
	}
	return half + time.Duration(rnd.Int64N(int64(half))), true
}

// LimitRetry returns s bounded to attempts attempts in all (the first
// included): after attempt number attempts it gives up, before asking s.
// attempts ≤ 1 makes one attempt.
func LimitRetry(s RetryStrategy, attempts int) RetryStrategy { return limitRetry{s, attempts} }

type limitRetry struct {
	s RetryStrategy
	n int
}

func (l limitRetry) Next(attempt int, rnd Rand) (time.Duration, bool) {
	if attempt >= max(l.n, 1) {
		return 0, false
	}
	return l.s.Next(attempt, rnd)
}

// checkStrategy refuses the built-in strategies' impossible arguments and
// the Retry.Attempts a strategy would silently override.
func checkStrategy(s RetryStrategy, attempts int) error {
	if attempts != 0 {
		return &OptionError{"Retry.Attempts", attempts, "cannot be used with RetryStrategy (bound the strategy with LimitRetry)"}
	}
	switch v := s.(type) {
	case constantBackoff:
		return nonNegative("ConstantBackoff", "d", v.d)
	case linearBackoff:
		if err := nonNegative("LinearBackoff", "step", v.step); err != nil {
			return err
		}
		return atLeast("LinearBackoff", v.step, v.max)
	case expBackoff:
		if v.base <= 0 {
			return &OptionError{"RetryStrategy", fmt.Sprintf("ExponentialBackoff(%v, %v)", v.base, v.max), "base must be positive"}
		}
		return atLeast("ExponentialBackoff", v.base, v.max)
	case limitRetry:
		if v.s == nil {
			return &OptionError{"RetryStrategy", "LimitRetry(nil, " + fmt.Sprint(v.n) + ")", "needs a strategy to limit"}
		}
		return checkStrategy(v.s, 0)
	}
	return nil
}

func nonNegative(name, arg string, d time.Duration) error {
	if d < 0 {
		return &OptionError{"RetryStrategy", fmt.Sprintf("%s(%v)", name, d), arg + " must not be negative"}
	}
	return nil
}

func atLeast(name string, first, maxWait time.Duration) error {
	if maxWait < first {
		return &OptionError{"RetryStrategy", fmt.Sprintf("%s(%v, %v)", name, first, maxWait), "maxWait must be at least " + first.String()}
	}
	return nil
}

// strategy is the retry strategy c's loop asks: Options.RetryStrategy, or
// the one the Retry field describes.
func (c *config) strategy() RetryStrategy {
	if c.RetryStrategy != nil {
		return c.RetryStrategy
	}
	s := ExponentialBackoff(c.Retry.Delay, c.Retry.MaxDelay)
	if c.Retry.Attempts < 0 {
		return s
	}
	return LimitRetry(s, c.Retry.Attempts)
}

package locks

import (
	"context"
	"errors"
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
// the one the Retry field describes (built once, when the options were
// resolved).
func (c *config) strategy() RetryStrategy {
	if c.retryBy != nil {
		return c.retryBy
	}
	if c.RetryStrategy != nil {
		return c.RetryStrategy
	}
	s := ExponentialBackoff(c.Retry.Delay, c.Retry.MaxDelay)
	if c.Retry.Attempts < 0 {
		return s
	}
	return LimitRetry(s, c.Retry.Attempts)
}

// counted is retry, counting into Metrics: each attempt, then the grant
// and the time it took, or the failure.
func (c *config) counted(ctx context.Context, try func() (*Lease, error)) (*Lease, error) {
	m := c.Metrics
	begin := c.Clock.Now()
	l, err := c.retry(ctx, func() (*Lease, error) {
		m.attempted()
		return try()
	})
	if err != nil {
		m.failed()
		return nil, err
	}
	m.acquired()
	m.waited(c.Clock.Since(begin))
	return l, nil
}

// retry calls try until it succeeds, fails with an error that is not
// retryable, the strategy gives up, or ctx is done.
func (c *config) retry(ctx context.Context, try func() (*Lease, error)) (*Lease, error) {
	return c.retryWith(ctx, try, c.Clock.Sleep)
}

// retryWith is retry spending each backoff in wait instead of a sleep (a
// waiter that can be woken blocks until it is, or until the backoff).
func (c *config) retryWith(ctx context.Context, try func() (*Lease, error), wait func(context.Context, time.Duration) error) (*Lease, error) {
	var taken error // the last failure that found the lock taken
	peeked := false // the one poll at a holding's expiry was made (see atExpiry)
	var rest time.Duration
	s := c.strategy()
	for n := 1; ; {
		l, err := try()
		switch {
		case err == nil:
			return l, nil
		case ctx.Err() != nil:
			return nil, gaveUp(ctx.Err(), taken, err)
		case !retryable(ctx, err):
			return nil, err
		}
		if isTaken(err) {
			taken = err
		}
		d := rest // after the poll at an expiry: the rest of the backoff it cut short
		if rest > 0 {
			rest = 0
		} else {
			var again bool
			if d, again = s.Next(n, c.Rand); !again {
				return nil, err
			}
			n++
			if left, ok := expiresIn(err); ok && !peeked && left < d { // the holding runs out sooner: poll then, once (waitexpiry.go)
				peeked = true
				at := atExpiry(left, d, c.Rand)
				d, rest = at, d-at
			}
		}
		if serr := wait(ctx, max(d, 0)); serr != nil {
			return nil, gaveUp(serr, taken, err)
		}
	}
}

// gaveUp is the error of an Acquire that the context ended (cause) after an
// attempt failed with err. It matches cause, and ErrNotAcquired (ErrQuorum)
// if any attempt found the lock taken, even when the last one was cut short
// or failed otherwise (a client's i/o timeout can beat the context's own).
func gaveUp(cause, taken, err error) error {
	if !errors.Is(err, cause) {
		err = joinSleep(err, cause)
	}
	if taken == nil || isTaken(err) {
		return err
	}
	return joinSleep(taken, err)
}

func isTaken(err error) bool { return errors.Is(err, ErrNotAcquired) || errors.Is(err, ErrQuorum) }

// retryable reports whether another attempt may succeed after err: not
// after an option error or a permanent Redis error, nor once ctx is done.
func retryable(ctx context.Context, err error) bool {
	if ctx.Err() != nil || errors.Is(err, ErrPermanent) {
		return false
	}
	var oe *OptionError
	return !errors.As(err, &oe)
}

// waitLoop polls try under c's retry policy (bounded exponential backoff
// with jitter, through the Clock). When it gives up — attempts spent,
// context done, or an error — it calls leave, so that what the attempts
// left in Redis (a queued waiter, a writer's intent, a grant whose reply was
// lost) does not outlive the caller's interest; leave holds the caller only
// while ctx lasts and CleanupGrace past its end, and runs on in the
// background after (see owe).
func waitLoop(ctx context.Context, c *config, m *Metrics, try func() (*Lease, error), leave func(context.Context)) (*Lease, error) {
	return wokenLoop(ctx, c, m, c.Clock.Sleep, try, leave)
}

// wokenLoop is waitLoop spending each backoff in wait (a waker's, which
// returns early when the waiter is woken).
func wokenLoop(ctx context.Context, c *config, m *Metrics, wait func(context.Context, time.Duration) error, try func() (*Lease, error), leave func(context.Context)) (*Lease, error) {
	begin := c.Clock.Now()
	l, err := c.retryWith(ctx, func() (*Lease, error) {
		m.attempted()
		return try()
	}, wait)
	if err != nil {
		// Held only while ctx lasts, and CleanupGrace past it (see owe).
		c.owe(ctx, func(ctx context.Context) error { leave(ctx); return nil }, nil)
		m.failed()
		return nil, err
	}
	m.acquired()
	m.waited(c.Clock.Since(begin))
	return l, nil
}

func joinSleep(err, serr error) error { return fmt.Errorf("%w (gave up: %w)", err, serr) }

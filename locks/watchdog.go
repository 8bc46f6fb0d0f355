package locks

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// Watchdog is a single-node lock kept alive by a background renewal every
// RenewEvery (default TTL/3) for as long as it is held. The renewal stops on
// Release. Each renewal attempt is bounded by a third of the validity left,
// and a failed one is tried again while validity remains, so one lost
// request does not cost the lease. A holder learns of a loss through its
// lease: Done is closed and Err returns ErrLockLost when a renewal is
// refused (the key is gone or someone else's), and as soon as the validity
// of the last successful renewal has run out on the holder's clock — a
// timer, so even a renewal stuck on a black-holed connection, or a holder
// waking from a pause longer than the TTL, sees the loss before it acts.
//
// With Options.Fencing the key is a name: the lock is FencedLockKey(name),
// and every acquisition also issues a fencing token from the counter
// FencedCounterKey(name) in the same script, as Fenced does, so a store
// that checks tokens rejects a holder that lost the lock without knowing.
type Watchdog struct {
	s     single
	fence string // the fence counter's key, with Fencing; else ""
}

var _ Locker = (*Watchdog)(nil)

// NewWatchdog returns a watchdog-renewed lock on key.
func NewWatchdog(r Redis, key string, o Options) (*Watchdog, error) {
	if err := o.noOwner("Watchdog"); err != nil {
		return nil, err
	}
	if o.Fencing && o.Token != "" {
		return nil, &OptionError{"Token", strconv.Quote(o.Token), "cannot be used with Fencing (a fenced grant issues a fresh token and fence)"}
	}
	if o.Fencing && key == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	lockKey, fence := key, ""
	if o.Fencing {
		lockKey, fence = FencedLockKey(key), FencedCounterKey(key)
	}
	s, err := newSingle(r, lockKey, o)
	if err != nil {
		return nil, err
	}
	if err := s.c.resolveRenew(); err != nil {
		return nil, err
	}
	return &Watchdog{s: s, fence: fence}, nil
}

// try makes one attempt: SET NX PX, or with Fencing the fenced script.
func (w *Watchdog) try(ctx context.Context) (*Lease, error) {
	return w.s.replicated(ctx, func(ctx context.Context) (*Lease, error) {
		if w.fence != "" {
			return w.s.tryFenced(ctx, w.fence)
		}
		return w.s.trySetNX(ctx)
	})
}

// Acquire takes the lock and starts its renewal.
func (w *Watchdog) Acquire(ctx context.Context) (*Lease, error) {
	l, err := w.s.c.counted(ctx, func() (*Lease, error) { return w.try(ctx) })
	if err != nil {
		return nil, err
	}
	startWatchdog(&w.s.c, l, func(ctx context.Context) (bool, error) { return w.s.extend(ctx, l) }, w.s.c.Metrics)
	return l, nil
}

// Release stops the renewal and deletes the key if it is still ours.
func (w *Watchdog) Release(ctx context.Context, l *Lease) error {
	return ownedRelease(ctx, &w.s, w.s.c.Metrics, l)
}

// renewFunc extends the lock once: (true, nil) extended, (false, nil)
// refused because the lock is not ours, (_, err) outcome unknown.
type renewFunc func(ctx context.Context) (bool, error)

// startWatchdog renews l every c.RenewEvery until the holding ends. The
// loop runs on the Clock, so a paused client's watchdog pauses too.
func startWatchdog(c *config, l *Lease, renew renewFunc, m *Metrics) {
	ctx, cancel := c.Clock.WithCancel(context.Background())
	l.h.onEnd(cancel)
	if ctx.Err() != nil {
		return
	}
	c.Clock.Go(func() { watch(ctx, c, l, renew, m) })
}

func watch(ctx context.Context, c *config, l *Lease, renew renewFunc, m *Metrics) {
	for {
		if c.Clock.Sleep(ctx, c.RenewEvery) != nil {
			return
		}
		if !renewWithin(ctx, c, l, renew, m) {
			return
		}
	}
}

// renewWithin renews l, trying again after a failed attempt while its
// validity lasts. Each attempt is bounded by a third of the validity left
// (so one lost request leaves time for more) and at most RenewEvery. It
// reports whether the lease is still held.
func renewWithin(ctx context.Context, c *config, l *Lease, renew renewFunc, m *Metrics) bool {
	for {
		left := l.h.remaining()
		if left <= 0 {
			m.lost()
			l.h.runOut()
			return false
		}
		rctx, cancel := c.Clock.WithTimeout(ctx, attemptTimeout(c, left))
		ok, err := renew(rctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return false
		case err == nil && ok:
			m.renewed()
			return true
		case err == nil:
			m.lost()
			l.h.end(fmt.Errorf("%w: renewal refused", ErrLockLost))
			return false
		}
		m.renewFailed()
		if c.Clock.Sleep(ctx, retryPause(c, l.h.remaining())) != nil {
			return false
		}
	}
}

// attemptTimeout bounds one renewal attempt when left of the validity
// remains: a third of it, at most RenewEvery, at least 1ms.
func attemptTimeout(c *config, left time.Duration) time.Duration {
	return max(min(left/3, c.RenewEvery), time.Millisecond)
}

// retryPause is the wait after a failed renewal attempt before the next,
// so that an error that comes back at once (connection refused) does not
// spin: an eighth of the validity left, at most RenewEvery/4.
func retryPause(c *config, left time.Duration) time.Duration {
	return max(min(left/8, c.RenewEvery/4), 0)
}

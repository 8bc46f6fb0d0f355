package locks

import (
	"context"
	"fmt"
)

// Watchdog is a single-node lock kept alive by a background renewal every
// RenewEvery (default TTL/3) for as long as it is held. The renewal stops on
// Release. A holder learns of a loss through its lease: Done is closed and
// Err returns ErrLockLost when a renewal is refused (the key is gone or
// someone else's), and Err also turns ErrLockLost as soon as the validity of
// the last successful renewal has run out on the holder's clock — so a
// holder waking from a pause longer than the TTL sees the loss before it
// acts, even if the watchdog has not run yet.
type Watchdog struct{ s single }

var _ Locker = (*Watchdog)(nil)

// NewWatchdog returns a watchdog-renewed lock on key.
func NewWatchdog(r Redis, key string, o Options) (*Watchdog, error) {
	s, err := newSingle(r, key, o)
	if err != nil {
		return nil, err
	}
	return &Watchdog{s}, nil
}

// Acquire takes the lock and starts its renewal.
func (w *Watchdog) Acquire(ctx context.Context) (*Lease, error) {
	l, err := w.s.c.retry(ctx, func() (*Lease, error) { return w.s.trySetNX(ctx) })
	if err != nil {
		return nil, err
	}
	startWatchdog(&w.s.c, l, func(ctx context.Context) (bool, error) { return w.s.extend(ctx, l) }, nil)
	return l, nil
}

// Release stops the renewal and deletes the key if it is still ours.
func (w *Watchdog) Release(ctx context.Context, l *Lease) error { return w.s.release(ctx, l) }

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
		left := l.h.remaining()
		if left <= 0 {
			m.lost()
			l.h.runOut()
			return
		}
		rctx, cancel := c.Clock.WithTimeout(ctx, left)
		ok, err := renew(rctx)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && ok:
			m.renewed()
		case err == nil:
			m.lost()
			l.h.end(fmt.Errorf("%w: renewal refused", ErrLockLost))
			return
		default:
			m.renewFailed()
		}
	}
}

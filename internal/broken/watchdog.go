package broken

import (
	"context"
	"fmt"

	"github.com/locksim/locksim/locks"
)

// WatchdogRenewTTL is the pitfall "watchdog-renew-ttl": a watchdog lock
// whose renewal interval equals the TTL (the seed's renewal_interval=30
// with timeout=30) instead of TTL/3.
//
// The renewal is due at the very instant the key expires, so the lock
// lapses between renewals: with any latency or pause at all the renewal
// arrives after the key is gone, and another client can take the lock
// while the holder has not released it and its watchdog is still running.
// The holder learns of the loss only afterwards (renewal refused). The
// correct Watchdog renews every TTL/3 and keeps the key alive throughout.
type WatchdogRenewTTL struct {
	r  locks.Redis
	b  base
	hs holdings
}

var _ locks.Locker = (*WatchdogRenewTTL)(nil)

// NewWatchdogRenewTTL returns the watchdog-renew-ttl variant on key. It
// ignores o.RenewEvery: the renewal interval is the TTL.
func NewWatchdogRenewTTL(r locks.Redis, key string, o locks.Options) (*WatchdogRenewTTL, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newBase(key, o)
	if err != nil {
		return nil, err
	}
	return &WatchdogRenewTTL{r: r, b: b}, nil
}

// Acquire takes the lock with SET NX PX and starts the renewal loop.
func (w *WatchdogRenewTTL) Acquire(ctx context.Context) (*locks.Lease, error) {
	return w.b.acquire(ctx, func() (*locks.Lease, error) {
		token := w.b.rnd.Token()
		start := w.b.clk.Now()
		ok, err := w.r.SetNX(ctx, w.b.key, token, w.b.ttl).Result()
		if err != nil {
			return nil, keyErr("acquire", w.b.key, err)
		}
		if !ok || w.b.validity(w.b.clk.Since(start)) <= 0 {
			return nil, keyErr("acquire", w.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(w.b.clk, w.b.key, token, 0, 1, start, w.b.validity(0))
		wctx, stop := w.b.clk.WithCancel(context.Background())
		w.hs.add(l, g, stop)
		w.b.clk.Go(func() { w.watch(wctx, l) })
		return l, nil
	})
}

// watch renews l every TTL — the pitfall — until it is released or a
// renewal is refused.
func (w *WatchdogRenewTTL) watch(ctx context.Context, l *locks.Lease) {
	for {
		if w.b.clk.Sleep(ctx, w.b.ttl) != nil {
			return
		}
		start := w.b.clk.Now()
		rctx, cancel := w.b.clk.WithTimeout(ctx, w.b.ttl)
		n, err := runInt(rctx, w.r, extendScript, []string{w.b.key}, l.Token, w.b.ttl.Milliseconds())
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && n == 1:
			w.hs.renewed(l, start, w.b.validity(0))
		case err == nil:
			w.hs.end(l, fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
			return
		}
	}
}

// Release stops the renewal and deletes the key if it is still ours.
func (w *WatchdogRenewTTL) Release(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", w.b.key, locks.ErrNotHeld)
	}
	n, err := runInt(ctx, w.r, releaseScript, []string{w.b.key}, l.Token)
	return w.hs.released(l, w.b.key, n, err)
}

package broken

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// The single-key SET NX variants: basic-del, watchdog-renew-ttl and
// fenced-volatile.

// setNX makes one SET NX PX attempt with a fresh token, as Basic does; a
// grant that came too late to leave any validity is given back.
func setNX(ctx context.Context, r locks.Redis, b conf) (token string, start time.Time, err error) {
	token = b.Rand().Token()
	start = b.Clock().Now()
	ok, err := r.SetNX(ctx, b.key, token, b.TTL()).Result()
	switch {
	case err != nil:
		return "", start, keyErr("acquire", b.key, err)
	case !ok:
		return "", start, keyErr("acquire", b.key, locks.ErrNotAcquired)
	case b.Validity(b.Clock().Since(start)) <= 0:
		_, _ = runInt(context.WithoutCancel(ctx), r, releaseScript, []string{b.key}, token)
		return "", start, keyErr("acquire", b.key, locks.ErrNotAcquired)
	}
	return token, start, nil
}

// BasicDel is the pitfall "basic-del": a Basic lock (SET key token NX PX
// ttl) released by a plain DEL with no owner check.
//
// When a holder outlives its TTL — a pause, a slow section — the key
// expires and another client takes it; the first holder's release then
// deletes the second holder's key, so a third client acquires while the
// second still holds a valid lease: two holders. The correct Basic's
// owner-checked release returns ErrNotHeld instead and leaves the key.
type BasicDel struct {
	r  locks.Redis
	b  conf
	hs holdings
}

var (
	_ locks.Locker   = (*BasicDel)(nil)
	_ locks.Extender = (*BasicDel)(nil)
)

// NewBasicDel returns the basic-del variant on key.
func NewBasicDel(r locks.Redis, key string, o locks.Options) (*BasicDel, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newConf(key, o)
	if err != nil {
		return nil, err
	}
	return &BasicDel{r: r, b: b}, nil
}

// Acquire takes the lock with SET NX PX, exactly as Basic does.
func (d *BasicDel) Acquire(ctx context.Context) (*locks.Lease, error) {
	return d.b.Retry(ctx, func() (*locks.Lease, error) {
		token, start, err := setNX(ctx, d.r, d.b)
		if err != nil {
			return nil, err
		}
		l, g := locks.NewLease(d.b.Clock(), d.b.key, token, 0, 1, start, d.b.Validity(0))
		d.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the key, whoever holds it: the pitfall. It returns
// ErrNotHeld only when there was no key at all.
func (d *BasicDel) Release(ctx context.Context, l *locks.Lease) error {
	n, err := runInt(ctx, d.r, delScript, []string{d.b.key})
	return d.hs.released(l, d.b.key, n, err)
}

// Extend resets the TTL if the lease still holds the lock (owner-checked,
// as in Basic: the pitfall is in Release only).
func (d *BasicDel) Extend(ctx context.Context, l *locks.Lease) error {
	if err := l.Err(); err != nil {
		return keyErr("extend", d.b.key, locks.ErrNotHeld)
	}
	start := d.b.Clock().Now()
	n, err := runInt(ctx, d.r, extendScript, []string{d.b.key}, l.Token, d.b.TTLms())
	if err != nil {
		return keyErr("extend", d.b.key, err)
	}
	if n == 0 {
		d.hs.end(l, locks.ErrLockLost)
		return keyErr("extend", d.b.key, locks.ErrNotHeld)
	}
	d.hs.renewed(l, start, d.b.Validity(0))
	return nil
}

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
	b  conf
	hs holdings
}

var _ locks.Locker = (*WatchdogRenewTTL)(nil)

// NewWatchdogRenewTTL returns the watchdog-renew-ttl variant on key. It
// ignores o.RenewEvery: the renewal interval is the TTL.
func NewWatchdogRenewTTL(r locks.Redis, key string, o locks.Options) (*WatchdogRenewTTL, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newConf(key, o)
	if err != nil {
		return nil, err
	}
	return &WatchdogRenewTTL{r: r, b: b}, nil
}

// Acquire takes the lock with SET NX PX and starts the renewal loop.
func (w *WatchdogRenewTTL) Acquire(ctx context.Context) (*locks.Lease, error) {
	return w.b.Retry(ctx, func() (*locks.Lease, error) {
		token, start, err := setNX(ctx, w.r, w.b)
		if err != nil {
			return nil, err
		}
		l, g := locks.NewLease(w.b.Clock(), w.b.key, token, 0, 1, start, w.b.Validity(0))
		wctx, stop := w.b.Clock().WithCancel(context.Background())
		w.hs.add(l, g, stop)
		w.b.Clock().Go(func() { w.watch(wctx, l) })
		return l, nil
	})
}

// watch renews l every TTL — the pitfall — until it is released or a
// renewal is refused.
func (w *WatchdogRenewTTL) watch(ctx context.Context, l *locks.Lease) {
	for {
		if w.b.Clock().Sleep(ctx, w.b.TTL()) != nil {
			return
		}
		start := w.b.Clock().Now()
		rctx, cancel := w.b.Clock().WithTimeout(ctx, w.b.TTL())
		n, err := runInt(rctx, w.r, extendScript, []string{w.b.key}, l.Token, w.b.TTLms())
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && n == 1:
			w.hs.renewed(l, start, w.b.Validity(0))
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

// FencedVolatile is the pitfall "fenced-volatile": a fenced lock whose
// fence counter is lost with the lock. The acquire script gives the
// counter the lock's TTL, so once nobody has held the lock for a TTL the
// counter is gone and the next holder is issued token 1 again — the same
// happens to the correct Fenced's counter when a node restarts without
// persistence, which is the seed's warning. Tokens repeat, so a store that
// accepts tokens ≥ the highest it has seen takes a stale holder's write
// after a newer holder's: a lost update. The correct Fenced never expires
// its counter, and its tokens strictly increase.
type FencedVolatile struct {
	r     locks.Redis
	b     conf
	fence string
	hs    holdings
}

var _ locks.Locker = (*FencedVolatile)(nil)

// NewFencedVolatile returns the fenced-volatile variant named name; its
// keys are locks.FencedLockKey(name) and locks.FencedCounterKey(name).
func NewFencedVolatile(r locks.Redis, name string, o locks.Options) (*FencedVolatile, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	if name == "" {
		return nil, &locks.OptionError{Field: "name", Value: `""`, Rule: "must not be empty"}
	}
	b, err := newConf(locks.FencedLockKey(name), o)
	if err != nil {
		return nil, err
	}
	return &FencedVolatile{r: r, b: b, fence: locks.FencedCounterKey(name)}, nil
}

// Acquire takes the lock and issues the next token of a counter that
// expires with it.
func (f *FencedVolatile) Acquire(ctx context.Context) (*locks.Lease, error) {
	return f.b.Retry(ctx, func() (*locks.Lease, error) {
		token := f.b.Rand().Token()
		start := f.b.Clock().Now()
		fence, err := runInt(ctx, f.r, volatileFenceScript, []string{f.b.key, f.fence}, token, f.b.TTLms())
		if err != nil {
			return nil, keyErr("acquire", f.b.key, err)
		}
		if fence == 0 {
			return nil, keyErr("acquire", f.b.key, locks.ErrNotAcquired)
		}
		if f.b.Validity(f.b.Clock().Since(start)) <= 0 {
			_, _ = runInt(context.WithoutCancel(ctx), f.r, releaseScript, []string{f.b.key}, token)
			return nil, keyErr("acquire", f.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(f.b.Clock(), f.b.key, token, fence, 1, start, f.b.Validity(0))
		f.hs.add(l, g, nil)
		return l, nil
	})
}

// Release deletes the lock key if it still holds the lease's token.
func (f *FencedVolatile) Release(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", f.b.key, locks.ErrNotHeld)
	}
	n, err := runInt(ctx, f.r, releaseScript, []string{f.b.key}, l.Token)
	return f.hs.released(l, f.b.key, n, err)
}

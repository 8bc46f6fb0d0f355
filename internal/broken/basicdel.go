package broken

import (
	"context"

	"github.com/locksim/locksim/locks"
)

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
	b  base
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
	b, err := newBase(key, o)
	if err != nil {
		return nil, err
	}
	return &BasicDel{r: r, b: b}, nil
}

// Acquire takes the lock with SET NX PX, exactly as Basic does.
func (d *BasicDel) Acquire(ctx context.Context) (*locks.Lease, error) {
	return d.b.acquire(ctx, func() (*locks.Lease, error) {
		token := d.b.rnd.Token()
		start := d.b.clk.Now()
		ok, err := d.r.SetNX(ctx, d.b.key, token, d.b.ttl).Result()
		if err != nil {
			return nil, keyErr("acquire", d.b.key, err)
		}
		if !ok {
			return nil, keyErr("acquire", d.b.key, locks.ErrNotAcquired)
		}
		if d.b.validity(d.b.clk.Since(start)) <= 0 {
			_, _ = runInt(context.WithoutCancel(ctx), d.r, releaseScript, []string{d.b.key}, token)
			return nil, keyErr("acquire", d.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(d.b.clk, d.b.key, token, 0, 1, start, d.b.validity(0))
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
	start := d.b.clk.Now()
	n, err := runInt(ctx, d.r, extendScript, []string{d.b.key}, l.Token, d.b.ttl.Milliseconds())
	if err != nil {
		return keyErr("extend", d.b.key, err)
	}
	if n == 0 {
		d.hs.end(l, locks.ErrLockLost)
		return keyErr("extend", d.b.key, locks.ErrNotHeld)
	}
	d.hs.renewed(l, start, d.b.validity(0))
	return nil
}

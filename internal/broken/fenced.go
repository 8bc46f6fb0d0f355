package broken

import (
	"context"

	"github.com/locksim/locksim/locks"
)

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
	b     base
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
	b, err := newBase(locks.FencedLockKey(name), o)
	if err != nil {
		return nil, err
	}
	return &FencedVolatile{r: r, b: b, fence: locks.FencedCounterKey(name)}, nil
}

// Acquire takes the lock and issues the next token of a counter that
// expires with it.
func (f *FencedVolatile) Acquire(ctx context.Context) (*locks.Lease, error) {
	return f.b.acquire(ctx, func() (*locks.Lease, error) {
		token := f.b.rnd.Token()
		start := f.b.clk.Now()
		fence, err := runInt(ctx, f.r, volatileFenceScript, []string{f.b.key, f.fence}, token, f.b.ttl.Milliseconds())
		if err != nil {
			return nil, keyErr("acquire", f.b.key, err)
		}
		if fence == 0 {
			return nil, keyErr("acquire", f.b.key, locks.ErrNotAcquired)
		}
		if f.b.validity(f.b.clk.Since(start)) <= 0 {
			_, _ = runInt(context.WithoutCancel(ctx), f.r, releaseScript, []string{f.b.key}, token)
			return nil, keyErr("acquire", f.b.key, locks.ErrNotAcquired)
		}
		l, g := locks.NewLease(f.b.clk, f.b.key, token, fence, 1, start, f.b.validity(0))
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

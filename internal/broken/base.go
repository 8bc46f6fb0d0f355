package broken

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
)

// base is the configuration every variant shares, resolved from
// locks.Options with the defaults and checks of package locks, so that a
// variant differs from the pattern it imitates only by its pitfall.
type base struct {
	key   string
	ttl   time.Duration // whole milliseconds
	clk   clock.Clock
	rnd   locks.Rand
	drift float64
	retry locks.Retry
	opts  locks.Options // as given, for the fields one variant reads itself
}

const minDrift = 2 * time.Millisecond

func newBase(key string, o locks.Options) (base, error) {
	if key == "" {
		return base{}, &locks.OptionError{Field: "key", Value: `""`, Rule: "must not be empty"}
	}
	if o.TTL < time.Millisecond {
		return base{}, &locks.OptionError{Field: "TTL", Value: o.TTL, Rule: "must be at least 1ms"}
	}
	if o.DriftFactor < 0 || o.DriftFactor >= 1 {
		return base{}, &locks.OptionError{Field: "DriftFactor", Value: o.DriftFactor, Rule: "must be in [0, 1)"}
	}
	if o.Retry.Delay < 0 || o.Retry.MaxDelay < 0 {
		return base{}, &locks.OptionError{Field: "Retry", Value: o.Retry, Rule: "delays must not be negative"}
	}
	b := base{key: key, ttl: o.TTL.Truncate(time.Millisecond), clk: o.Clock, rnd: o.Rand,
		drift: o.DriftFactor, retry: o.Retry, opts: o}
	if b.clk == nil {
		b.clk = clock.Real{}
	}
	if b.rnd == nil {
		b.rnd = locks.CryptoRand{}
	}
	if b.drift == 0 {
		b.drift = 0.01
	}
	if b.retry.Delay == 0 {
		b.retry.Delay = 10 * time.Millisecond
	}
	if b.retry.MaxDelay < b.retry.Delay {
		b.retry.MaxDelay = 16 * b.retry.Delay
	}
	return b, nil
}

// validity is what a grant obtained after elapsed leaves the holder, as in
// package locks: TTL − elapsed − (TTL × DriftFactor + 2ms).
func (b *base) validity(elapsed time.Duration) time.Duration {
	return b.ttl - elapsed - time.Duration(float64(b.ttl)*b.drift) - minDrift
}

// acquire calls try as the Retry policy says: until it succeeds, the
// attempts run out, or ctx is done, with exponential backoff and jitter.
func (b *base) acquire(ctx context.Context, try func() (*locks.Lease, error)) (*locks.Lease, error) {
	for n := 1; ; n++ {
		l, err := try()
		if err == nil || ctx.Err() != nil {
			return l, err
		}
		if b.retry.Attempts >= 0 && n >= max(b.retry.Attempts, 1) {
			return nil, err
		}
		if serr := b.clk.Sleep(ctx, b.backoff(n)); serr != nil {
			return nil, fmt.Errorf("%w (gave up: %w)", err, serr)
		}
	}
}

func (b *base) backoff(n int) time.Duration {
	d := b.retry.Delay
	for i := 1; i < n && d < b.retry.MaxDelay; i++ {
		d *= 2
	}
	d = min(d, b.retry.MaxDelay)
	if d/2 <= 0 {
		return d
	}
	return d/2 + time.Duration(b.rnd.Int64N(int64(d/2)))
}

// trySetNX makes one SET NX PX attempt with a fresh token, as Basic does;
// a grant that came too late to leave any validity is given back.
func (b *base) trySetNX(ctx context.Context, r locks.Redis) (token string, start time.Time, err error) {
	token = b.rnd.Token()
	start = b.clk.Now()
	ok, err := r.SetNX(ctx, b.key, token, b.ttl).Result()
	switch {
	case err != nil:
		return "", start, keyErr("acquire", b.key, err)
	case !ok:
		return "", start, keyErr("acquire", b.key, locks.ErrNotAcquired)
	case b.validity(b.clk.Since(start)) <= 0:
		_, _ = runInt(context.WithoutCancel(ctx), r, releaseScript, []string{b.key}, token)
		return "", start, keyErr("acquire", b.key, locks.ErrNotAcquired)
	}
	return token, start, nil
}

func keyErr(op, key string, err error) error { return &locks.KeyError{Key: key, Op: op, Err: err} }

// released turns the reply of a single-key release script (n keys
// deleted, or err) into Release's result and ends l's holding accordingly;
// an error leaves the holding as it was (the outcome is unknown).
func (hs *holdings) released(l *locks.Lease, key string, n int64, err error) error {
	switch {
	case err != nil:
		return keyErr("release", key, err)
	case n == 0:
		hs.end(l, locks.ErrLockLost)
		return keyErr("release", key, locks.ErrNotHeld)
	default:
		hs.end(l, locks.ErrReleased)
		return nil
	}
}

// holdings maps the leases a variant issued to their control side, and to
// the stop function of their renewal loop where there is one.
type holdings struct {
	mu sync.Mutex
	m  map[*locks.Lease]held
}

type held struct {
	g    *locks.Holding
	stop func()
}

func (hs *holdings) add(l *locks.Lease, g *locks.Holding, stop func()) {
	hs.mu.Lock()
	defer hs.mu.Unlock()
	if hs.m == nil {
		hs.m = map[*locks.Lease]held{}
	}
	hs.m[l] = held{g: g, stop: stop}
}

// end stops l's renewal, if any, and ends its holding with err.
func (hs *holdings) end(l *locks.Lease, err error) {
	hs.mu.Lock()
	h, ok := hs.m[l]
	delete(hs.m, l)
	hs.mu.Unlock()
	if !ok {
		return
	}
	if h.stop != nil {
		h.stop()
	}
	h.g.End(err)
}

// renewed records a renewal of l sent at start.
func (hs *holdings) renewed(l *locks.Lease, start time.Time, valid time.Duration) {
	hs.mu.Lock()
	h, ok := hs.m[l]
	hs.mu.Unlock()
	if ok {
		h.g.Renewed(start, valid)
	}
}

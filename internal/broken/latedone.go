package broken

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
)

// WatchdogLateDone is the bug class "the holder learns of loss only from a
// renewal's outcome" (watchdog-late-done), which lock libraries have
// shipped and fixed: the lease is trusted for as long as the watchdog
// runs, with no timer of its own, and each renewal waits for its reply as
// long as the connection's read timeout lets it (go-redis: 3s). On a
// black-holed connection the renewal neither succeeds nor fails for that
// long: the key expires on the server, another client takes the lock, and
// the holder's Done stays open — and Err nil — until the read timeout
// ends the renewal, many TTLs later. The correct Watchdog bounds each
// attempt well inside the validity and closes Done when the validity runs
// out on the holder's clock, before the key expires.
type WatchdogLateDone struct {
	r     locks.Redis
	b     conf
	hs    holdings
	every time.Duration
}

var _ locks.Locker = (*WatchdogLateDone)(nil)

// trusted is the validity the variant gives its leases: in effect none
// runs out (the pitfall); only a renewal's failure ends the holding.
const trusted = 1000 * time.Hour

// NewWatchdogLateDone returns the watchdog-late-done variant on key,
// renewing every o.RenewEvery (default TTL/3), as Watchdog does.
func NewWatchdogLateDone(r locks.Redis, key string, o locks.Options) (*WatchdogLateDone, error) {
	if r == nil {
		return nil, &locks.OptionError{Field: "Redis", Value: "nil", Rule: "must be set"}
	}
	b, err := newRenewingConf(key, o)
	if err != nil {
		return nil, err
	}
	return &WatchdogLateDone{r: r, b: b, every: b.RenewEvery()}, nil
}

// Acquire takes the lock with SET NX PX and starts the renewal loop.
func (w *WatchdogLateDone) Acquire(ctx context.Context) (*locks.Lease, error) {
	return w.b.Retry(ctx, func() (*locks.Lease, error) {
		token, start, err := setNX(ctx, w.r, w.b)
		if err != nil {
			return nil, err
		}
		l, g := locks.NewLease(w.b.Clock(), w.b.key, token, 0, 1, start, trusted)
		wctx, stop := w.b.Clock().WithCancel(context.Background())
		w.hs.add(l, g, stop)
		w.b.Clock().Go(func() { w.watch(wctx, l) })
		return l, nil
	})
}

// watch renews l every interval, each renewal bounded only by the
// connection's own timeout (the pitfall), until it is released, refused
// or fails.
func (w *WatchdogLateDone) watch(ctx context.Context, l *locks.Lease) {
	for {
		if w.b.Clock().Sleep(ctx, w.every) != nil {
			return
		}
		n, err := runInt(ctx, w.r, extendScript, []string{w.b.key}, l.Token, w.b.TTLms())
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			w.hs.end(l, fmt.Errorf("%w: renewal failed: %w", locks.ErrLockLost, err))
			return
		case n != 1:
			w.hs.end(l, fmt.Errorf("%w: renewal refused", locks.ErrLockLost))
			return
		}
	}
}

// Release stops the renewal and deletes the key if it is still ours.
func (w *WatchdogLateDone) Release(ctx context.Context, l *locks.Lease) error {
	if l == nil {
		return keyErr("release", w.b.key, locks.ErrNotHeld)
	}
	n, err := runInt(ctx, w.r, releaseScript, []string{w.b.key}, l.Token)
	return w.hs.released(l, w.b.key, n, err)
}

func init() {
	pattern.Register(pattern.Pattern{Name: "watchdog-late-done", Nodes: 1, Broken: true, Claims: claimsOf("watchdog"),
		Pitfall: "loss learnt only from a renewal's outcome, each renewal waiting out the read timeout: on a black-holed connection Done stays open long after the key expired",
		Summary: "SET NX PX renewed every TTL/3, the lease trusted until a renewal fails, with no validity timer",
		New:     pattern.Single(NewWatchdogLateDone)})
}

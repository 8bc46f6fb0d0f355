package locks

import (
	"context"
	"strconv"
)

// Watchdog is a single-node lock kept alive by a background renewal every
// RenewEvery (default TTL/3) for as long as it is held. The renewal stops on
// Release. One renewal loop per Locker renews all its holdings (see
// renewer): it starts with the first holding and ends once the Locker has
// held nothing for a moment, so a busy Locker starts no goroutine per
// acquisition and an idle one runs none. Each renewal attempt is bounded by a third of the validity left,
// and a failed one is tried again while validity remains, so one lost
// request does not cost the lease. A holder learns of a loss through its
// lease: Done is closed and Err returns ErrLockLost when a renewal is
// refused (the key is gone or someone else's), and as soon as the validity
// of the last successful renewal has run out on the holder's clock — a
// timer, so even a renewal stuck on a black-holed connection, or a holder
// waking from a pause longer than the TTL, sees the loss before it acts.
//
// A key whose TTL is cut behind the holder's back (PEXPIRE by an operator
// or another program) is set to the full TTL again by the next renewal if
// it still holds the holder's token then: the owner check passes, so the
// holding goes on. A key that expired first is a loss, as a deleted one
// is — the renewal is refused and the holding ends with ErrLockLost —
// because another client may have taken and released the lock meanwhile,
// so nothing would show that exclusion held. Between that expiry and the
// renewal (at most RenewEvery) the holder does not know; fencing tokens
// protect the store then. Service renews the same way.
//
// With Options.Fencing the key is a name: the lock is FencedLockKey(name),
// and every acquisition also issues a fencing token from the counter
// FencedCounterKey(name) in the same script, as Fenced does, so a store
// that checks tokens rejects a holder that lost the lock without knowing.
type Watchdog struct {
	s     single
	fence string   // the fence counter's key, with Fencing; else ""
	rn    *renewer // the Locker's one renewal loop
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
	o.renews, o.metadata = true, true
	s, err := newSingle(r, lockKey, o)
	if err != nil {
		return nil, err
	}
	if err := s.c.resolveRenew(); err != nil {
		return nil, err
	}
	w := &Watchdog{s: s, fence: fence}
	w.rn = newRenewer(&w.s.c, w.s.c.Metrics)
	return w, nil
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
	if w.s.c.pit.orphaned() {
		w.renewOrphaned(l)
		return l, nil
	}
	w.rn.add(l, func(ctx context.Context) (bool, error) { return w.s.extend(ctx, l) })
	return l, nil
}

// Release stops the renewal and deletes the key if it is still ours.
func (w *Watchdog) Release(ctx context.Context, l *Lease) error {
	return w.s.release(ctx, w.s.c.Metrics, l)
}

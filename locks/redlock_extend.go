package locks

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// NewRedlockWatchdog returns a Redlock over nodes that renews its lock in
// the background while it is held, as Watchdog does for one node: every
// RenewEvery (default TTL/3) the Locker's renewal loop extends the lock on
// every node in parallel (see ExtendTTL: re-set on nodes that lost it
// only while a majority still holds it),
// each attempt bounded by a third of the validity left and tried again
// while validity remains. A renewal refused by so many nodes that no
// quorum is possible (the lock is another owner's there) ends the holding
// — Done closed, Err ErrLockLost — and gives the lease's token back on
// every node that did not refuse the renewal; so does the validity of the last renewed quorum running out
// on the holder's clock (a timer), unless a renewal landed first. Release
// stops the renewals and waits (at most RenewEvery + NodeTimeout) for an
// attempt in flight to end before it sends, so that no extension, which
// sets a missing key again, lands on a node after its release.
func NewRedlockWatchdog(nodes []Redis, key string, o Options) (*Redlock, error) {
	o.renews = true
	rl, err := NewRedlock(nodes, key, o)
	if err != nil {
		return nil, err
	}
	if err := rl.c.resolveRenew(); err != nil {
		return nil, err
	}
	rl.rn = newRenewer(&rl.c, rl.c.Metrics)
	return rl, nil
}

// Extend pushes the lease's expiry out to Options.TTL (see ExtendTTL).
func (rl *Redlock) Extend(ctx context.Context, l *Lease) error {
	return rl.extendOrLose(ctx, l, rl.c.TTL)
}

// ExtendTTL extends the lease to ttl on every node in parallel, each
// request bounded by NodeTimeout, with an owner-checked script
// (scripts/redlock_extend.lua) that gives the new TTL to every node whose
// key still holds the lease's token. It succeeds when a majority extended
// it and validity is left, measured from the extension's start: the
// lease's validity is then ttl − elapsed − drift allowance. Only then are
// the nodes that lost the key (restarted without their data, or expired
// there by a clock jump) sent the key again with the same token for ttl,
// if no other owner took it there, in a second round trip — so rolling
// restarts of in-memory nodes do not shrink the quorum. While a majority
// holds the token no other owner can have held the lock meanwhile; once a
// majority lost it, another may have taken, used and released it there,
// and setting it again would resurrect a lock the holder lost: so an
// extension that a majority no longer holds is refused, with nothing set
// again. Otherwise the lease is lost (Err
// is ErrLockLost, Done closed), its token is given back on every node
// that did not refuse the extension (another owner's key there, or none),
// and the error matches ErrNotHeld and carries the
// *QuorumError (ErrQuorum when other owners or lost keys cost the quorum,
// ErrUnavailable when unanswered nodes cost it; a lost key counts in
// Taken). A ttl that leaves
// no validity is refused with an *OptionError; a foreign, stale, nil or
// hand-built lease gets ErrNotHeld; neither sends anything.
func (rl *Redlock) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	ttl, err := rl.c.extendTTL(ttl)
	if err != nil {
		return wrap("extend", rl.key, err)
	}
	return rl.extendOrLose(ctx, l, ttl)
}

// extendOrLose is the owner-checked extension of l to ttl; a missed
// quorum ends the holding and gives the token back.
func (rl *Redlock) extendOrLose(ctx context.Context, l *Lease, ttl time.Duration) error {
	if err := verify(l, rl, rl.key); err != nil {
		return wrap("extend", rl.key, err)
	}
	errs, qe := rl.extendTo(ctx, l, ttl)
	if qe == nil {
		rl.c.Metrics.renewed()
		return nil
	}
	rl.c.Metrics.lost()
	rl.lose(ctx, l, qe, errs)
	return wrap("extend", rl.key, fmt.Errorf("%w: %w", ErrNotHeld, qe))
}

// lose ends l's holding after an extension that missed its quorum and
// gives its token back (best effort; the keys expire anyway) on every
// node that did not refuse the extension (see giveBack).
func (rl *Redlock) lose(ctx context.Context, l *Lease, qe *QuorumError, errs []error) {
	l.h.end(fmt.Errorf("%w: extension missed the quorum: %w", ErrLockLost, qe))
	rl.giveBack(context.WithoutCancel(ctx), l.id.token, errs)
}

// renew is the watchdog's renewal of l: (true, nil) extended, (false, nil)
// refused (the token is given back where the renewal was not refused),
// (false, err) outcome unknown.
func (rl *Redlock) renew(ctx context.Context, l *Lease) (bool, error) {
	errs, qe := rl.extendTo(ctx, l, rl.c.TTL)
	switch {
	case qe == nil:
		return true, nil
	case qe.taken() && !qe.Expired:
		rl.giveBack(context.WithoutCancel(ctx), l.id.token, errs)
		return false, nil
	}
	return false, qe
}

// errGone is a node's answer to an extension when the lease's key is gone
// there: a refusal (nothing was written), which a majority extension
// mends afterwards (resetGone).
var errGone = fmt.Errorf("%w: the key is gone from the node", ErrNotHeld)

// extendTo runs the extension script on every node and, when a majority
// extended in time, records the new validity on l and sets the key again
// on the nodes that lost it; otherwise it returns each node's answer and
// why the extension failed.
func (rl *Redlock) extendTo(ctx context.Context, l *Lease, ttl time.Duration) ([]error, *QuorumError) {
	start := rl.c.Clock.Now()
	args := []any{l.id.token, ttl.Milliseconds()}
	errs := rl.fanOut(ctx, nil, func(ctx context.Context, _ int, r Redis) error {
		n, err := runInt(ctx, r, redlockExtendScript, rl.keys, args...)
		switch {
		case err != nil:
			return err
		case n == 0:
			return ErrNotHeld
		case n < 0:
			return errGone
		}
		return nil
	})
	extended := succeeded(errs)
	if extended >= rl.quorum && rl.c.validityFor(ttl, rl.c.Clock.Since(start)) > 0 {
		l.h.extend(start, rl.c.validityFor(ttl, 0))
		rl.resetGone(ctx, args, errs)
		return nil, nil
	}
	qe := rl.tally(errs)
	qe.Expired = extended >= rl.quorum
	return errs, qe
}

// resetGone sets the lease's key again, with args (its token and the TTL in
// ms), on the nodes whose answer in errs was errGone, by the acquisition
// script (SET unless another owner took the key there), after an
// extension that a majority still holding token granted: no other owner
// can have held the lock in between. Best effort: a node it misses stays
// without the key, as it was.
func (rl *Redlock) resetGone(ctx context.Context, args []any, errs []error) {
	var gone []int
	for i, err := range errs {
		if errors.Is(err, errGone) {
			gone = append(gone, i)
		}
	}
	rl.fanOutTo(ctx, gone, func(ctx context.Context, _ int, r Redis) error {
		_, err := runInt(ctx, r, redlockAcquireScript, rl.keys, args...)
		return err
	})
}

package locks

import (
	"context"
	"fmt"
	"time"
)

// Fair is a lock granted in arrival order, as the server decides it.
//
// A waiter's first poll takes a ticket from a server-side counter (INCR)
// and joins a queue (a ZSET token → ticket) in the same script that gives it
// its own expiring waiter key: there is no moment when a waiter is queued
// without an expiry. Every poll refreshes the waiter key and prunes the
// waiters whose key has expired, and the lock goes only to the head of the
// queue. A waiter that vanishes therefore stops blocking the queue once its
// waiter key expires (WaitTTL after its last poll); one that gives up
// (cancelled context, deadline, attempts spent) dequeues itself at once;
// and each call a waiter makes is bounded by a third of WaitTTL (see
// callBound), so one whose request or reply was lost polls again before
// its key expires instead of holding the head of the queue.
//
// Client clocks play no part in the order: two clients whose clocks
// disagree are still served in the order their first polls reached Redis.
// Between polls a waiter blocks on its own wake list (BLPOP, see Blocker)
// for the Retry policy's backoff (Retry.MaxDelay caps the gap between
// polls); Release, and a head that leaves the queue, push to the wake list
// of the new head only, so it polls at once. A lock freed by expiry pushes
// nothing: the waiter finds it on its next poll, within one backoff. Behind
// a Redis without Blocker, waiting is polling through the Clock. Holding is
// a SET key token PX ttl, released owner-checked, and extendable.
//
// Keys, for name n: {n}:lock, {n}:queue, {n}:seq, one {n}:w:<token> per
// waiter and one {n}:wake:<token> per woken waiter (expiring), all in one
// hash slot.
type Fair struct {
	s       single
	k       fairKeys // its key names, built once
	waitTTL time.Duration
	m       *Metrics
	fence   string   // with Options.Fencing, the fence counter's key (FairFenceKey); else ""
	rn      *renewer // NewFairWatchdog's renewal loop; nil if the holder renews
}

var (
	_ Locker      = (*Fair)(nil)
	_ TTLExtender = (*Fair)(nil)
)

// FairKeys are the keys of the fair lock named name.
func FairKeys(name string) (lock, queue, seq, waiterPrefix string) {
	t := "{" + name + "}"
	return t + ":lock", t + ":queue", t + ":seq", t + ":w:"
}

// fairKeys are a fair lock's key names (FairKeys, WakePrefix), built when
// it is made rather than at every call.
type fairKeys struct {
	lock, queue, seq, prefix, wake string
}

func newFairKeys(name string) fairKeys {
	lock, queue, seq, prefix := FairKeys(name)
	return fairKeys{lock: lock, queue: queue, seq: seq, prefix: prefix, wake: WakePrefix(name)}
}

// NewFair returns a fair lock named name. Its waiters' entries expire after
// WaitTTL = max(TTL, 3 × Retry.MaxDelay) without a poll.
func NewFair(r Redis, name string, o Options) (*Fair, error) {
	if name == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	if err := o.noOwner("Fair"); err != nil {
		return nil, err
	}
	k := newFairKeys(name)
	s, err := newSingle(r, k.lock, o)
	if err != nil {
		return nil, err
	}
	wait := max(s.c.TTL, 3*s.c.Retry.MaxDelay).Truncate(time.Millisecond)
	return &Fair{s: s, k: k, waitTTL: wait, m: o.Metrics, fence: fairFence(name, o.Fencing)}, nil
}

// NewFairWatchdog returns a fair lock named name whose holdings are
// renewed in the background every RenewEvery (default TTL/3) while held,
// as Watchdog's are: one renewal loop per Locker, each attempt bounded by
// a third of the validity left and retried while validity remains; a
// refused renewal, or a validity that runs out on the holder's clock,
// closes the lease's Done with ErrLockLost. Renewal stops on Release.
func NewFairWatchdog(r Redis, name string, o Options) (*Fair, error) {
	o.renews = true
	f, err := NewFair(r, name, o)
	if err != nil {
		return nil, err
	}
	if err := f.s.c.resolveRenew(); err != nil {
		return nil, err
	}
	f.rn = newRenewer(&f.s.c, o.Metrics)
	return f, nil
}

// WaitTTL is how long a waiter's queue entry outlives its last poll.
func (f *Fair) WaitTTL() time.Duration { return f.waitTTL }

// Acquire joins the queue and polls until this waiter is at the head and
// the lock is free, the attempts run out or ctx is done; in the last two
// cases it leaves the queue before returning.
func (f *Fair) Acquire(ctx context.Context) (*Lease, error) {
	token := f.s.c.Rand.Token()
	w := newWaker(f.s.r, f.k.wake, token, &f.s.c, f.callBound())
	return wokenLoop(ctx, &f.s.c, f.m, w.wait,
		func() (*Lease, error) { return f.poll(ctx, token) },
		func(ctx context.Context) { _ = f.leave(ctx, token) })
}

// callBound bounds each call a waiter makes (a poll, or a block beyond its
// timeout): a third of WaitTTL. A waiter whose request or reply was lost
// would otherwise wait for the client's read timeout, keeping its place
// in the queue (at the head, blocking every waiter behind it) until its
// waiter key expired; bounded, it polls again and refreshes the key in
// time. (go-redis honours the bound with ContextTimeoutEnabled.)
func (f *Fair) callBound() time.Duration { return max(f.waitTTL/3, time.Millisecond) }

// poll makes one fair_acquire call for token, bounded by callBound.
func (f *Fair) poll(ctx context.Context, token string) (*Lease, error) {
	lock := f.k.lock
	start := f.s.c.Clock.Now()
	pctx, cancel := f.s.c.Clock.WithTimeout(ctx, f.callBound())
	pos, err := runInt(pctx, f.s.r, fairAcquireScript, f.pollKeys(),
		token, f.s.c.ttlMS, f.waitTTL.Milliseconds(), f.k.prefix)
	cancel()
	if err != nil {
		return nil, wrap("acquire", lock, err)
	}
	if pos > 0 {
		return nil, wrap("acquire", lock, fmt.Errorf("%w: position %d in the queue", ErrNotAcquired, pos))
	}
	l, err := f.s.grant(ctx, start, token, -pos)
	if l != nil && f.rn != nil {
		f.rn.add(l, func(ctx context.Context) (bool, error) { return f.s.extend(ctx, l) })
	}
	return l, err
}

// leave dequeues token and releases a grant to it whose reply was lost.
func (f *Fair) leave(ctx context.Context, token string) error {
	_, err := runInt(ctx, f.s.r, fairLeaveScript, []string{f.k.lock, f.k.queue},
		token, f.k.prefix, f.k.wake, f.s.c.wakeTTL())
	return err
}

// Release deletes the lock if it still holds the lease's token and wakes
// the head of the queue, which takes the lock on the poll that follows.
func (f *Fair) Release(ctx context.Context, l *Lease) error {
	return f.release(ctx, l)
}

// Extend resets the TTL if the lease still holds the lock.
func (f *Fair) Extend(ctx context.Context, l *Lease) error {
	if l == nil {
		return wrap("extend", f.s.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	}
	return f.s.extendHeld(ctx, f.m, l, f.s.c.TTL)
}

// ExtendTTL sets the lease's TTL to ttl if it still holds the lock (see
// TTLExtender).
func (f *Fair) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	if l == nil {
		return wrap("extend", f.s.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	}
	return f.s.extendHeld(ctx, f.m, l, ttl)
}

// release is the fair lock's owner-checked release, which also wakes the
// head of the queue (fair_release.lua), counted into the metrics.
func (f *Fair) release(ctx context.Context, l *Lease) error {
	lock := f.k.lock
	if err := verifyRelease(l, &f.s, lock); err != nil {
		return wrap("release", lock, err)
	}
	l.h.letGo() // a renewing holding's renewals stop as its release begins
	n, err := runInt(ctx, f.s.r, fairReleaseScript, []string{lock, f.k.queue},
		l.id.token, f.k.prefix, f.k.wake, f.s.c.wakeTTL())
	switch {
	case err != nil:
		return wrap("release", lock, err)
	case n == 0:
		return lostBy(f.m, l, "release", lock, ErrNotHeld)
	}
	freed(f.m, l)
	return nil
}

// Fencing on the fair lock: with Options.Fencing, each grant also
// increments a never-expiring counter in the lock's hash slot, in the
// grant's own script (scripts/fair_acquire.lua), and the lease carries the
// new value as its Fence, as Fenced's do.

// FairFenceKey is the fence counter of the fair lock named name, used with
// Options.Fencing; it never expires.
func FairFenceKey(name string) string { return "{" + name + "}:fence" }

// fairFence is the fence counter's key of the fair lock named name when
// fencing, else "".
func fairFence(name string, fencing bool) string {
	if !fencing {
		return ""
	}
	return FairFenceKey(name)
}

// pollKeys are the keys of one fair_acquire call: the lock, the queue, the
// ticket counter and, when fencing, the fence counter.
func (f *Fair) pollKeys() []string {
	if f.fence == "" {
		return []string{f.k.lock, f.k.queue, f.k.seq}
	}
	return []string{f.k.lock, f.k.queue, f.k.seq, f.fence}
}

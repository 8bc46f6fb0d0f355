package locks

import (
	"context"
	"fmt"
	"time"
)

// RWLocker is a read-write lock: readers share it, a writer holds it alone.
// Each lease belongs to its holder: only the lease a call returned releases
// that holding.
type RWLocker interface {
	RLock(ctx context.Context) (*Lease, error)
	RUnlock(ctx context.Context, l *Lease) error
	Lock(ctx context.Context) (*Lease, error)
	Unlock(ctx context.Context, l *Lease) error
}

// RWLock is a read-write lock in which every reader is an owner.
//
// Readers are tokens in a set, each backed by its own expiring key, so a
// reader's holding expires on its own (a crashed reader frees its share
// after its TTL) and only its token releases it: RUnlock with any other
// lease is ErrNotHeld and leaves the other readers in place. The writer is
// a SET key token PX ttl granted only when no reader is live. A writer that
// waits for readers to drain announces its intent (a key with its token,
// refreshed on each poll, expiring IntentTTL after the last one); new
// readers are refused while it stands, so a stream of readers cannot starve
// a writer, and a writer that vanishes blocks readers for at most
// IntentTTL. Both kinds of holding are renewable (Extend), re-enter
// through their lease (Reenter), and a writer may take the read lock its
// holding implies or downgrade to it (RLockAsWriter, Downgrade); see
// NewRWLockWatchdog for holdings renewed in the background.
//
// Keys, for name n: {n}:writer, {n}:readers, {n}:intent and one
// {n}:r:<token> per reader, all in one hash slot.
type RWLock struct {
	w         single
	readers   members
	intent    string // its intent key (RWKeys), built once
	intentTTL time.Duration
	m         *Metrics
	rn        *renewer // NewRWLockWatchdog's renewal loop; nil if the holder renews
}

var (
	_ RWLocker = (*RWLock)(nil)
	_ Extender = (*RWLock)(nil)
)

// RWKeys are the keys of the read-write lock named name.
func RWKeys(name string) (writer, readers, intent, readerPrefix string) {
	t := "{" + name + "}"
	return t + ":writer", t + ":readers", t + ":intent", t + ":r:"
}

// NewRWLock returns a read-write lock named name. A waiting writer's intent
// expires after IntentTTL = max(TTL, 3 × Retry.MaxDelay) without a poll.
func NewRWLock(r Redis, name string, o Options) (*RWLock, error) {
	if name == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	if err := o.noOwner("RWLock"); err != nil {
		return nil, err
	}
	writer, readers, intent, prefix := RWKeys(name)
	s, err := newSingle(r, writer, o)
	if err != nil {
		return nil, err
	}
	rw := &RWLock{w: s, intent: intent, m: o.Metrics}
	rw.readers = members{r: r, key: readers, prefix: prefix, c: &rw.w.c, m: o.Metrics}
	rw.intentTTL = max(s.c.TTL, 3*s.c.Retry.MaxDelay).Truncate(time.Millisecond)
	return rw, nil
}

// NewRWLockWatchdog returns a read-write lock named name whose read and
// write holdings are renewed in the background every RenewEvery (default
// TTL/3) while held, as Watchdog's are: one renewal loop per Locker, each
// attempt bounded by a third of the validity left and retried while
// validity remains; a refused renewal, or a validity that runs out on the
// holder's clock, closes the lease's Done with ErrLockLost. Renewal stops
// on RUnlock or Unlock of the holding's last lease.
func NewRWLockWatchdog(r Redis, name string, o Options) (*RWLock, error) {
	o.renews = true
	rw, err := NewRWLock(r, name, o)
	if err != nil {
		return nil, err
	}
	if err := rw.w.c.resolveRenew(); err != nil {
		return nil, err
	}
	rw.rn = newRenewer(&rw.w.c, o.Metrics)
	return rw, nil
}

// watch hands a new holding to the renewal loop, if the lock has one.
func (rw *RWLock) watch(l *Lease) {
	if rw.rn != nil {
		rw.rn.add(l, func(ctx context.Context) (bool, error) { return rw.renew(ctx, l) })
	}
}

// IntentTTL bounds how long a vanished writer's intent blocks new readers.
func (rw *RWLock) IntentTTL() time.Duration { return rw.intentTTL }

// RLock takes a read holding of its own, waiting while a writer holds the
// lock or waits for it.
func (rw *RWLock) RLock(ctx context.Context) (*Lease, error) {
	token := rw.w.c.Rand.Token()
	return waitLoop(ctx, &rw.w.c, rw.m,
		func() (*Lease, error) { return rw.tryRead(ctx, token) },
		func(ctx context.Context) { _, _ = rw.readers.drop(ctx, token) })
}

func (rw *RWLock) tryRead(ctx context.Context, token string) (*Lease, error) {
	readers := rw.readers.key
	start := rw.w.c.Clock.Now()
	n, err := runInt(ctx, rw.w.r, rwRLockScript, []string{rw.w.key, readers, rw.intent}, token, rw.w.c.ttlMS, rw.readers.prefix)
	if err != nil {
		return nil, wrap("acquire", readers, err)
	}
	if n <= 0 { // minus the writer's PTTL while one holds it
		return nil, wrap("acquire", readers, takenFor(n, fmt.Errorf("%w: a writer holds or awaits it", ErrNotAcquired)))
	}
	l, err := rw.readers.granted(ctx, token, start)
	if l != nil {
		l.Shared = true
		rw.watch(l)
	}
	return l, err
}

// RUnlock releases this reader's holding only (of a re-entered one, see
// Reenter, only l until it is the last lease open).
func (rw *RWLock) RUnlock(ctx context.Context, l *Lease) error {
	if rw.partly(l, true) {
		return nil
	}
	return rw.readers.release(ctx, l)
}

// Lock takes the write holding, waiting for readers to drain (new readers
// are held off meanwhile) and for any writer to release.
func (rw *RWLock) Lock(ctx context.Context) (*Lease, error) {
	token := rw.w.c.Rand.Token()
	return waitLoop(ctx, &rw.w.c, rw.m,
		func() (*Lease, error) { return rw.tryWrite(ctx, token) },
		func(ctx context.Context) { rw.leaveWrite(ctx, token) })
}

func (rw *RWLock) tryWrite(ctx context.Context, token string) (*Lease, error) {
	writer := rw.w.key
	start := rw.w.c.Clock.Now()
	n, err := runInt(ctx, rw.w.r, rwLockScript, []string{writer, rw.readers.key, rw.intent},
		token, rw.w.c.ttlMS, rw.intentTTL.Milliseconds(), rw.readers.prefix)
	if err != nil {
		return nil, wrap("acquire", writer, err)
	}
	if n <= 0 { // minus the writer's PTTL while one holds it
		return nil, wrap("acquire", writer, takenFor(n, ErrNotAcquired))
	}
	l, err := rw.w.grant(ctx, start, token, 0)
	if l != nil {
		rw.watch(l)
	}
	return l, err
}

func (rw *RWLock) leaveWrite(ctx context.Context, token string) {
	_, _ = runInt(ctx, rw.w.r, rwWLeaveScript, []string{rw.w.key, rw.intent}, token)
}

// Unlock releases the write holding if the lease still holds it (of a
// re-entered one, see Reenter, only l until it is the last lease open).
func (rw *RWLock) Unlock(ctx context.Context, l *Lease) error {
	if rw.partly(l, false) {
		return nil
	}
	return rw.w.release(ctx, rw.m, l)
}

// Extend renews a read or a write holding (whichever l is) if it still
// holds.
func (rw *RWLock) Extend(ctx context.Context, l *Lease) error {
	switch {
	case l == nil:
		return wrap("extend", rw.w.key, fmt.Errorf("%w: nil lease", ErrNotHeld))
	case IsReadLease(l):
		return rw.readers.extend(ctx, l)
	default:
		return rw.w.extendHeld(ctx, rw.m, l, rw.w.c.TTL)
	}
}

// IsReadLease reports whether l is a read holding (marked Shared, as an
// RWLock's read leases are); the checks use it to tell shared from
// exclusive holdings.
func IsReadLease(l *Lease) bool { return l != nil && l.Shared }

// Reader returns a Locker whose Acquire is RLock and Release RUnlock.
func (rw *RWLock) Reader() Locker { return rwSide{rw, true} }

// Writer returns a Locker whose Acquire is Lock and Release Unlock.
func (rw *RWLock) Writer() Locker { return rwSide{rw, false} }

// rwSide adapts one side of an RWLock to Locker (and Extender).
type rwSide struct {
	rw   *RWLock
	read bool
}

func (s rwSide) Acquire(ctx context.Context) (*Lease, error) {
	if s.read {
		return s.rw.RLock(ctx)
	}
	return s.rw.Lock(ctx)
}

func (s rwSide) Release(ctx context.Context, l *Lease) error {
	if s.read {
		return s.rw.RUnlock(ctx, l)
	}
	return s.rw.Unlock(ctx, l)
}

func (s rwSide) Extend(ctx context.Context, l *Lease) error { return s.rw.Extend(ctx, l) }

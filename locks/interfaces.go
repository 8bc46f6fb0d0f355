package locks

import (
	"context"
	"time"
)

// Locker is the interface every pattern implements.
type Locker interface {
	// Acquire takes the lock, retrying as the pattern's Retry policy says,
	// and honours ctx (deadline and cancellation). It returns ErrNotAcquired
	// (or, for Redlock, ErrQuorum) when the lock stayed taken.
	Acquire(ctx context.Context) (*Lease, error)
	// Release gives the lock back. It is owner-checked: it returns
	// ErrNotHeld if the lease no longer holds the lock (it expired, or it
	// was taken over) and never deletes another owner's lock.
	Release(ctx context.Context, l *Lease) error
}

// Extender is implemented by patterns whose holder can push the expiry out
// by hand (the watchdog patterns do it by themselves).
type Extender interface {
	// Extend resets the lease's TTL if it still holds the lock; ErrNotHeld
	// otherwise.
	Extend(ctx context.Context, l *Lease) error
}

// TTLExtender is implemented by the patterns whose holder can extend a
// lease to a TTL other than Options.TTL (Basic, Reentrant, Fenced, Fair,
// MultiLock).
type TTLExtender interface {
	Extender
	// ExtendTTL sets the lease's TTL to ttl (whole milliseconds) if it
	// still holds the lock, and its validity to ttl less the drift
	// allowance; ErrNotHeld otherwise. A ttl that leaves no validity after
	// its drift allowance (ttl × DriftFactor + 2ms) is refused with an
	// *OptionError naming ttl, before Redis is asked. A later Extend or
	// re-entry sets Options.TTL again.
	ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error
}

// TTLReader is implemented by every pattern (and by the Lockers of
// RWLock.Reader and RWLock.Writer): it reads how long the server still
// keeps a held lock.
type TTLReader interface {
	// TTL returns the lock's remaining time to live on the server (its
	// PTTL, in whole milliseconds) if the lease still holds it, read in one
	// script that checks the holding first: the token for Basic, Watchdog,
	// Fenced, Fair and an RWLock's writer; the lease's own entry in the hash
	// for Reentrant and Service; the member's own key for a reader or a
	// permit. A lock that holds the lease but has no expiry (a PERSIST
	// behind its back) reports -1ns, as go-redis's PTTL does.
	//
	// The lease is checked as Extend checks it: a lease of another Locker,
	// a released one, one whose validity ran out, a nil or hand-built one
	// get ErrNotHeld and nothing is sent. When the server says the lease
	// no longer holds the lock, TTL returns ErrNotHeld and ends the lease
	// (Done closes, Err returns ErrLockLost).
	//
	// The server's TTL is not the holder's validity: it does not allow for
	// the request's round trip nor for clock drift. Rely on Lease.Validity.
	TTL(ctx context.Context, l *Lease) (time.Duration, error)
}

var (
	_ TTLReader = (*Basic)(nil)
	_ TTLReader = (*Watchdog)(nil)
	_ TTLReader = (*Fenced)(nil)
	_ TTLReader = (*Reentrant)(nil)
	_ TTLReader = (*Service)(nil)
	_ TTLReader = (*Redlock)(nil)
	_ TTLReader = (*Fair)(nil)
	_ TTLReader = (*RWLock)(nil)
	_ TTLReader = (*Semaphore)(nil)
	_ TTLReader = rwSide{}
)

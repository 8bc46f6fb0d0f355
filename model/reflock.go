package model

import (
	"fmt"
	"time"
)

// LockSpec configures a reference Lock.
type LockSpec struct {
	// TTL is the lease time, truncated to whole milliseconds as the
	// patterns send it (PX); at least 1ms.
	TTL time.Duration
	// Reentrant lets the holder acquire again, counting holds (the
	// Reentrant and Service patterns). Otherwise a second acquisition by
	// the holder is refused, as SET NX refuses it.
	Reentrant bool
	// Fencing issues a fencing token with every grant from a counter that
	// never expires (the Fenced pattern). Not with Reentrant.
	Fencing bool
}

// Lock is the reference model of one single-node lease lock, in the
// virtual time of the node that holds it. It promises exactly what the
// single-node patterns promise:
//
//   - at most one owner holds the lock at any instant of the node's time;
//   - a grant lasts TTL from the request that made it; the holder's
//     extension (or a reentrant owner's re-entry or partial release) resets
//     it to TTL; when it runs out the lock is free again;
//   - release and extension succeed only for the current holder;
//   - with Fencing, every grant carries a token greater than all before it,
//     across expiries, until a restart without persistence resets the
//     counter.
//
// A grant expires when the node's time reaches its expiry: Advance(TTL)
// right after Acquire frees the lock. That is miniredis's rule (FastForward
// deletes a key whose TTL reaches zero); a real redis-server frees the key
// only once its expiry has passed, so tests against real time should keep
// away from the exact instant.
//
// Lock is not safe for concurrent use: a property test drives it from one
// goroutine, step by step beside the real lock.
type Lock struct {
	spec    LockSpec
	now     time.Duration
	owner   string
	count   int
	expires time.Duration
	fence   int64
}

// Grant is the outcome of Lock.Acquire.
type Grant struct {
	OK    bool
	Count int   // hold count after the grant: 1, or n for the n-th nested one
	Fence int64 // fencing token issued (0 without Fencing, or when refused)
}

// NewLock returns a free reference lock at time 0.
func NewLock(spec LockSpec) (*Lock, error) {
	spec.TTL = spec.TTL.Truncate(time.Millisecond)
	if spec.TTL < time.Millisecond {
		return nil, fmt.Errorf("model: LockSpec.TTL (%v) must be at least 1ms", spec.TTL)
	}
	if spec.Reentrant && spec.Fencing {
		return nil, fmt.Errorf("model: LockSpec.Fencing and LockSpec.Reentrant cannot both be set (no pattern re-enters a fenced lock)")
	}
	return &Lock{spec: spec}, nil
}

// Spec returns the lock's configuration (TTL truncated to milliseconds).
func (l *Lock) Spec() LockSpec { return l.spec }

// Now is the node's current virtual time, from 0.
func (l *Lock) Now() time.Duration { return l.now }

// Advance moves the node's time forward by d and frees the lock if its
// grant has run out. It panics if d is negative: a reference node's clock
// does not run backwards.
func (l *Lock) Advance(d time.Duration) {
	if d < 0 {
		panic(fmt.Sprintf("model: Lock.Advance(%v): negative duration", d))
	}
	l.now += d
	l.expire()
}

func (l *Lock) expire() {
	if l.count > 0 && l.now >= l.expires {
		l.owner, l.count = "", 0
	}
}

// Acquire tries to take the lock for owner: granted when the lock is free,
// or, with Reentrant, when owner already holds it (the count goes up and
// the TTL is reset).
func (l *Lock) Acquire(owner string) Grant {
	l.expire()
	switch {
	case l.count == 0:
		l.owner, l.count = owner, 1
	case l.spec.Reentrant && l.owner == owner:
		l.count++
	default:
		return Grant{}
	}
	l.expires = l.now + l.spec.TTL
	g := Grant{OK: true, Count: l.count}
	if l.spec.Fencing {
		l.fence++
		g.Fence = l.fence
	}
	return g
}

// Release drops one hold of owner's and reports what is left. ok is false
// when owner does not hold the lock (it never did, or its grant expired);
// nothing changes then. With Reentrant, a partial release resets the TTL.
func (l *Lock) Release(owner string) (left int, ok bool) {
	if !l.Holds(owner) {
		return 0, false
	}
	l.count--
	if l.count == 0 || !l.spec.Reentrant {
		l.owner, l.count = "", 0
		return 0, true
	}
	l.expires = l.now + l.spec.TTL
	return l.count, true
}

// Extend resets the TTL if owner holds the lock, and reports whether it did.
func (l *Lock) Extend(owner string) bool {
	if !l.Holds(owner) {
		return false
	}
	l.expires = l.now + l.spec.TTL
	return true
}

// Holds reports whether owner holds the lock now.
func (l *Lock) Holds(owner string) bool {
	l.expire()
	return l.count > 0 && l.owner == owner
}

// Holder returns the current owner and hold count ("" and 0 when free).
func (l *Lock) Holder() (owner string, count int) {
	l.expire()
	return l.owner, l.count
}

// Remaining is the grant's time to live, as PTTL reports it (0 when free).
func (l *Lock) Remaining() time.Duration {
	l.expire()
	if l.count == 0 {
		return 0
	}
	return l.expires - l.now
}

// Fence is the last fencing token issued (0 before the first).
func (l *Lock) Fence() int64 { return l.fence }

// Restart models the node restarting. With persistence it keeps everything
// (time goes on; a grant that ran out meanwhile is gone). Without it the
// node forgets the lock and the fence counter: the next grant's token is 1
// again, which is how fencing tokens come to repeat.
func (l *Lock) Restart(persist bool) {
	if persist {
		l.expire()
		return
	}
	l.owner, l.count, l.fence = "", 0, 0
}

// Package pitfall holds the deliberate mistakes that can be built into
// the correct patterns of package locks, for proving that a check can
// fail: a gate, an oracle or a test that must catch a lock with a mistake
// is shown catching the pattern's own code with that one step changed
// and nothing else.
//
// It is internal: a mistake is no option a lock user could choose, so
// `go doc locks` says nothing of it.
package pitfall

import (
	"time"

	"github.com/locksim/locksim/internal/lockbridge"
)

// Pitfall is one deliberate mistake built into a correct pattern, for
// proving that a check can fail: a gate, an oracle or a test that must
// catch a lock with this mistake is shown catching the pattern's own code
// with that one step changed and nothing else. Set it with With
// and pass the Options to the pattern's own constructor (locks.NewBasic,
// NewWatchdog, NewFenced, NewReentrant, NewService, NewRedlock); the
// broken variants are built this way. The zero Pitfall is the pattern
// itself.
//
// Every field makes the lock unsafe, so none of it is in package locks'
// API: package locks reads a Pitfall from its Options, and With (through
// lockbridge) is the only way to put one there. The patterns so keep one
// implementation each, and a mistake is never a copy of a pattern that
// has drifted from it. Each field names the step
// it replaces and the patterns that honour it; the others ignore it.
type Pitfall struct {
	// ReleaseScript, if set, is the Lua source Release runs in place of
	// the owner-checked release, with the same keys, arguments and reply.
	// Basic, Watchdog, Fenced: KEYS[1] lock, ARGV[1] token, reply the keys
	// deleted; the release is then the script alone, run for any lease,
	// one this Locker issued or not, spent or not (a lease it did not
	// issue, or spent, ends no holding). Reentrant, Service: ARGV[1]
	// owner, ARGV[2] TTL, ARGV[3] the lease's entry, reply the count left
	// or -1; the lease is checked first as ever (its entry comes from it).
	ReleaseScript string
	// FencedAcquireScript, if set, is the Lua source of the fenced
	// acquisition (Fenced, Watchdog with Fencing): KEYS[1] lock, KEYS[2]
	// counter, ARGV[1] token, ARGV[2] TTL; reply the fence, 0 (or minus the
	// lock's PTTL) if taken.
	FencedAcquireScript string
	// RenewEvery, if set, is the renewal period, given the resolved TTL,
	// taken as it is: not checked against the TTL (Watchdog, Service).
	RenewEvery func(ttl time.Duration) time.Duration
	// TTLArg, if set, is the TTL argument the scripts receive for a TTL, in
	// place of its whole milliseconds (every pattern whose grant, release
	// or renewal is a script).
	TTLArg func(ttl time.Duration) int64
	// Validity, if set, replaces TTL − elapsed − drift: what a grant or
	// renewal to ttl whose request took elapsed leaves the holder, counted
	// from its reply; a grant to which it leaves nothing is given back
	// (Basic, Watchdog, Fenced, Redlock; not checked at construction).
	Validity func(ttl, elapsed time.Duration) time.Duration
	// NodeSetNX makes a Redlock take each node by a plain SET NX PX, one
	// round trip, as the seed article's Redlock does, in place of its
	// acquisition script (Redlock).
	NodeSetNX bool
	// PerNodeFence makes a Redlock issue fencing tokens the way a
	// single-node Fenced does, on each node: the key is a name
	// (locks.FencedLockKey and locks.FencedCounterKey on every node), each node runs
	// the fenced acquisition, and the lease's Fence is the largest counter
	// of the nodes that granted it (Redlock).
	PerNodeFence bool
	// RenewAfterRelease, if set, is the Lua source of the renewal (same
	// keys, arguments and reply as the owner-checked extension), run by a
	// renewal that Release does not stop: it goes on until a renewal is
	// refused (Watchdog).
	RenewAfterRelease string
}

// With returns o, a locks.Options, building its pattern with the mistake
// p (package locks lends the setter through lockbridge).
func With[O any](o O, p Pitfall) O { return lockbridge.WithPitfall(o, p) }

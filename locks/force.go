package locks

import (
	"context"
	"errors"
	"fmt"
	"reflect"
)

// ErrForceUnsupported: ForceRelease does not know how to take the lock of
// this Locker away safely, and touched nothing.
var ErrForceUnsupported = errors.New("locks: ForceRelease does not support this pattern")

// ForceRelease deletes the lock of lk in Redis whoever holds it, with no
// owner check: a break-glass unlock for an operator whose holder is dead
// or stuck and who cannot wait out the TTL. It BREAKS MUTUAL EXCLUSION: a
// holder that is in fact alive still believes it holds the lock — until
// its next renewal is refused (Watchdog, Service, RedlockWatchdog: Done
// closes, Err is ErrLockLost) or its validity runs out — while another
// client may acquire at once, so two critical sections may run together.
// Use it only when the holder is known to be gone, or must be stopped and
// a store that checks fencing tokens protects the data: the fence counter
// is left alone, so the next holder's token is higher than the evicted
// one's and such a store rejects the evicted holder's writes.
//
// lk names the lock: build it as its holders do (the same key or name, the
// same Fencing, Redlock's nodes in any order); it need hold nothing, only
// its key layout is used. ForceRelease returns how many keys it deleted
// (0: the lock was free; Redlock counts each node's). It supports the
// patterns whose lock is one key, or a fixed set of keys, per node: Basic,
// Watchdog, Fenced, Reentrant, Service, Redlock and RedlockWatchdog (every
// node, each bounded by NodeTimeout; a node that fails is a *NodeError in
// the joined error, the others are still released) and MultiLock. A live
// RedlockWatchdog holder learns of it at its next renewal: a majority of
// the nodes lost its key, so the extension is refused and sets nothing
// again (Done closes, Err is ErrLockLost).
// Fair and Semaphore keep waiters and permits as members with keys of
// their own, whose removal could hand the lock to several at once or
// strand the queue: ForceRelease refuses them, and any Locker of another
// package, with ErrForceUnsupported (RWLock is no Locker).
func ForceRelease(ctx context.Context, lk Locker) (int, error) {
	if v := reflect.ValueOf(lk); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return 0, &OptionError{"Locker", fmt.Sprintf("%T(nil)", lk), "must not be nil"}
	}
	switch l := lk.(type) {
	case *Basic:
		return forceDelete(ctx, l.s.r, l.s.key)
	case *Watchdog:
		return forceDelete(ctx, l.s.r, l.s.key)
	case *Fenced:
		return forceDelete(ctx, l.s.r, l.s.key)
	case *Reentrant:
		return forceDelete(ctx, l.r, l.key)
	case *Service:
		return forceDelete(ctx, l.re.r, l.re.key)
	case *MultiLock:
		return forceDelete(ctx, l.r, l.keys...)
	case *Redlock:
		return l.forceRelease(ctx)
	}
	return 0, fmt.Errorf("%w: %T", ErrForceUnsupported, lk)
}

// forceDelete deletes keys on r in one script, whoever holds them.
func forceDelete(ctx context.Context, r Redis, keys ...string) (int, error) {
	if isNil(r) {
		return 0, &OptionError{"client", nilName(r), "must not be nil"}
	}
	n, err := runInt(ctx, r, forceReleaseScript, keys)
	return int(n), wrap("force-release", keys[0], err)
}

// forceRelease deletes rl's key on every node, each bounded by the node
// timeout; the nodes that fail are joined into the error.
func (rl *Redlock) forceRelease(ctx context.Context) (int, error) {
	n := 0
	var errs []error
	for i, node := range rl.nodes {
		nctx, cancel := rl.c.Clock.WithTimeout(ctx, rl.c.NodeTimeout)
		d, err := forceDelete(nctx, node, rl.key)
		cancel()
		n += d
		if err != nil {
			errs = append(errs, &NodeError{Node: i, Err: err})
		}
	}
	return n, errors.Join(errs...)
}

package locks

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// MultiLock locks several keys on one Redis node at once: its Acquire sets
// every key to one owner token with the TTL in a single script if none of
// them is held, and sets none otherwise. A program that needs several
// locks together takes them all or nothing, so two programs that need the
// same keys in different orders cannot each hold one and wait forever for
// the other (the deadlock of a circular wait). Release, Extend, ExtendTTL
// and TTL are owner-checked over all the keys. It promises what Basic
// promises, for the set of keys: mutual exclusion with every other
// MultiLock or Basic on any of them while the holder's validity lasts.
//
// The keys must live on one node: on a *redis.ClusterClient they must
// share a hash slot (use one hash tag, {order}:a and {order}:b), which
// NewMultiLock checks; any other client that routes keys over several nodes
// gets CROSSSLOT from the server, an error matching ErrPermanent.
//
// The lease's Key is the first key.
type MultiLock struct {
	r    Redis
	keys []string
	c    config
}

var (
	_ Locker      = (*MultiLock)(nil)
	_ TTLExtender = (*MultiLock)(nil)
	_ TTLReader   = (*MultiLock)(nil)
)

// The multi-key scripts.
// NewMultiLock returns a lock on every one of keys (at least one, none
// empty, none twice). On a *redis.ClusterClient the keys must share a hash
// slot. Owner and Token are refused: each acquisition writes a fresh token.
func NewMultiLock(r Redis, keys []string, o Options) (*MultiLock, error) {
	if isNil(r) {
		return nil, &OptionError{"Redis", nilName(r), "must be set"}
	}
	if err := o.checkContextTimeout("Redis", r); err != nil {
		return nil, err
	}
	if err := checkMultiKeys(keys); err != nil {
		return nil, err
	}
	if _, ok := r.(*redis.ClusterClient); ok {
		if err := sameSlot(keys); err != nil {
			return nil, err
		}
	}
	if err := o.noOwner("MultiLock"); err != nil {
		return nil, err
	}
	c, err := o.resolve()
	if err != nil {
		return nil, err
	}
	return &MultiLock{r: r, keys: slices.Clone(keys), c: c}, nil
}

// checkMultiKeys refuses an empty key list, an empty key and a repeated one.
func checkMultiKeys(keys []string) error {
	if len(keys) == 0 {
		return &OptionError{"keys", "[]", "must hold at least one key"}
	}
	seen := make(map[string]int, len(keys))
	for i, k := range keys {
		if k == "" {
			return &OptionError{fmt.Sprintf("keys[%d]", i), `""`, "must not be empty"}
		}
		if j, ok := seen[k]; ok {
			return &OptionError{fmt.Sprintf("keys[%d]", i), strconv.Quote(k), fmt.Sprintf("repeats keys[%d]", j)}
		}
		seen[k] = i
	}
	return nil
}

// sameSlot refuses keys that Redis Cluster would place in different slots.
func sameSlot(keys []string) error {
	first := keySlot(keys[0])
	for i, k := range keys[1:] {
		if s := keySlot(k); s != first {
			return &OptionError{fmt.Sprintf("keys[%d]", i+1), strconv.Quote(k),
				fmt.Sprintf("is in hash slot %d, not %d as keys[0] %q: on Redis Cluster the keys of a MultiLock must share a slot (give them one hash tag, {tag}:name)", s, first, keys[0])}
		}
	}
	return nil
}

// Keys returns the locked keys, in the order given.
func (ml *MultiLock) Keys() []string { return slices.Clone(ml.keys) }

// Acquire takes every key, or none, with a fresh owner token.
func (ml *MultiLock) Acquire(ctx context.Context) (*Lease, error) {
	return ml.c.counted(ctx, func() (*Lease, error) { return ml.try(ctx) })
}

func (ml *MultiLock) try(ctx context.Context) (*Lease, error) {
	token := ml.c.Rand.Token()
	start := ml.c.Clock.Now()
	n, err := runInt(ctx, ml.r, multiAcquireScript, ml.keys, token, ml.c.ttlMS)
	if err != nil {
		return nil, wrap("acquire", ml.keys[0], err)
	}
	if n != 0 {
		return nil, wrap("acquire", ml.keys[0], fmt.Errorf("%w: %q is held", ErrNotAcquired, ml.keys[min(max(n, 1), int64(len(ml.keys)))-1]))
	}
	if err := ml.c.inTime(ctx, start, func(ctx context.Context) error {
		_, err := runInt(ctx, ml.r, multiReleaseScript, ml.keys, token)
		return err
	}); err != nil {
		return nil, wrap("acquire", ml.keys[0], err)
	}
	return ml.c.lease(ml, ml.keys[0], token, 0, start), nil
}

// Release deletes every key that still holds the lease's token. It returns
// nil when all did; ErrNotHeld when some or none did (a key expired, or
// another owner took it), having deleted those that did.
func (ml *MultiLock) Release(ctx context.Context, l *Lease) error {
	if err := verifyRelease(l, ml, ml.keys[0]); err != nil {
		return wrap("release", ml.keys[0], err)
	}
	n, err := runInt(ctx, ml.r, multiReleaseScript, ml.keys, l.id.token)
	if err != nil {
		return wrap("release", ml.keys[0], err)
	}
	if int(n) != len(ml.keys) {
		return lostBy(ml.c.Metrics, l, "release", ml.keys[0], fmt.Errorf("%w: %d of %d keys still held the lease", ErrNotHeld, n, len(ml.keys)))
	}
	freed(ml.c.Metrics, l)
	return nil
}

// Extend resets every key's TTL if all still hold the lease's token.
func (ml *MultiLock) Extend(ctx context.Context, l *Lease) error {
	return ml.ExtendTTL(ctx, l, ml.c.TTL)
}

// ExtendTTL sets every key's TTL to ttl if all still hold the lease's
// token (see TTLExtender); if any does not, it changes nothing and returns
// ErrNotHeld.
func (ml *MultiLock) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	return extendOwned(ctx, &ml.c, ml.c.Metrics, l, ml, ml.keys[0], ttl,
		func(ctx context.Context, ttl time.Duration) (bool, error) { return ml.extendTo(ctx, l, ttl) },
		func() { l.h.end(ErrLockLost) })
}

// extendTo sets every key's TTL to ttl (whole ms) if all still hold l's
// token; it reports (false, nil) when they do not.
func (ml *MultiLock) extendTo(ctx context.Context, l *Lease, ttl time.Duration) (bool, error) {
	start := ml.c.Clock.Now()
	n, err := runInt(ctx, ml.r, multiExtendScript, ml.keys, l.id.token, ttl.Milliseconds())
	if err != nil || n == 0 {
		return false, err
	}
	l.h.extend(start, ml.c.validityFor(ttl, 0))
	return true, nil
}

// TTL returns the shortest remaining TTL on the server among the keys if
// every one still holds the lease's token; ErrNotHeld otherwise (see
// TTLReader).
func (ml *MultiLock) TTL(ctx context.Context, l *Lease) (time.Duration, error) {
	if err := verify(l, ml, ml.keys[0]); err != nil {
		return 0, wrap("ttl", ml.keys[0], err)
	}
	n, err := runInt(ctx, ml.r, multiTTLScript, ml.keys, l.id.token)
	if err != nil {
		return 0, wrap("ttl", ml.keys[0], err)
	}
	if n == notHeldTTL {
		ml.c.Metrics.lost()
		l.h.end(ErrLockLost)
		return 0, wrap("ttl", ml.keys[0], ErrNotHeld)
	}
	return pttl(n), nil
}

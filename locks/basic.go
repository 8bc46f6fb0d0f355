package locks

import (
	"context"
	"time"
)

// Basic is the single-node lock: SET key token NX PX ttl, released by an
// owner-checked Lua script. It promises mutual exclusion while the holder's
// validity lasts and the node keeps its data; it does not renew, re-enter
// or survive a holder that outlives its TTL.
type Basic struct{ s single }

var (
	_ Locker      = (*Basic)(nil)
	_ TTLExtender = (*Basic)(nil)
)

// NewBasic returns a Basic lock on key.
func NewBasic(r Redis, key string, o Options) (*Basic, error) {
	if err := o.noOwner("Basic"); err != nil {
		return nil, err
	}
	o.metadata = true
	s, err := newSingle(r, key, o)
	if err != nil {
		return nil, err
	}
	return &Basic{s}, nil
}

// Acquire takes the lock with a fresh owner token.
func (b *Basic) Acquire(ctx context.Context) (*Lease, error) {
	return b.s.c.counted(ctx, func() (*Lease, error) { return b.s.replicated(ctx, b.s.trySetNX) })
}

// Release deletes the key if it still holds the lease's token.
func (b *Basic) Release(ctx context.Context, l *Lease) error {
	return b.s.release(ctx, b.s.c.Metrics, l)
}

// Extend resets the TTL if the lease still holds the lock.
func (b *Basic) Extend(ctx context.Context, l *Lease) error {
	return b.s.extendHeld(ctx, b.s.c.Metrics, l, b.s.c.TTL)
}

// ExtendTTL sets the lease's TTL to ttl if it still holds the lock (see
// TTLExtender).
func (b *Basic) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	return b.s.extendHeld(ctx, b.s.c.Metrics, l, ttl)
}

package locks

import (
	"context"
	"time"
)

// Fenced is a single-node lock that issues a fencing token with every
// acquisition: SET NX PX and INCR of a counter run in one Lua script. The
// counter never expires, and the lock and counter keys share the hash tag
// {name}, so the script runs on Redis Cluster.
//
// Fencing makes a store that checks tokens safe even when two clients
// believe they hold the lock (after a pause or an expiry): the store rejects
// the stale holder's write. It is only as durable as the counter: a node
// that restarts without persistence issues the same tokens again.
type Fenced struct {
	s     single
	fence string // the fence counter's key (FencedCounterKey), built once
}

var (
	_ Locker      = (*Fenced)(nil)
	_ TTLExtender = (*Fenced)(nil)
)

// NewFenced returns a fenced lock named name; its keys are {name}:lock and
// {name}:fence.
func NewFenced(r Redis, name string, o Options) (*Fenced, error) {
	if name == "" {
		return nil, &OptionError{"name", `""`, "must not be empty"}
	}
	if err := o.noOwner("Fenced"); err != nil {
		return nil, err
	}
	o.metadata = true
	s, err := newSingle(r, FencedLockKey(name), o)
	if err != nil {
		return nil, err
	}
	return &Fenced{s: s, fence: FencedCounterKey(name)}, nil
}

// FencedLockKey and FencedCounterKey are the keys a Fenced lock named name uses.
func FencedLockKey(name string) string { return "{" + name + "}:lock" }

// FencedCounterKey is the fence counter's key; it never expires.
func FencedCounterKey(name string) string { return "{" + name + "}:fence" }

// Acquire takes the lock and returns a lease whose Fence is the new token.
func (f *Fenced) Acquire(ctx context.Context) (*Lease, error) {
	return f.s.c.counted(ctx, func() (*Lease, error) { return f.try(ctx) })
}

func (f *Fenced) try(ctx context.Context) (*Lease, error) {
	return f.s.replicated(ctx, func(ctx context.Context) (*Lease, error) { return f.s.tryFenced(ctx, f.fence) })
}

// tryFenced makes one attempt to take s's key and issue the next token of
// the counter fenceKey in one script (scripts/fenced_acquire.lua).
func (s *single) tryFenced(ctx context.Context, fenceKey string) (*Lease, error) {
	token := s.value(s.c.Rand.Token())
	start := s.c.Clock.Now()
	fence, err := runInt(ctx, s.conn(ctx), s.c.pit.fencedAcquireOr(fencedAcquireScript), []string{s.key, fenceKey}, token, s.c.ttlMS)
	if err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	if fence <= 0 { // minus the time the holding has left
		return nil, wrap("acquire", s.key, takenFor(fence, ErrNotAcquired))
	}
	return s.grant(ctx, start, token, fence)
}

// Release deletes the lock key if it still holds the lease's token. The
// fence counter stays.
func (f *Fenced) Release(ctx context.Context, l *Lease) error {
	return f.s.release(ctx, f.s.c.Metrics, l)
}

// Extend resets the TTL if the lease still holds the lock.
func (f *Fenced) Extend(ctx context.Context, l *Lease) error {
	return f.s.extendHeld(ctx, f.s.c.Metrics, l, f.s.c.TTL)
}

// ExtendTTL sets the lease's TTL to ttl if it still holds the lock (see
// TTLExtender).
func (f *Fenced) ExtendTTL(ctx context.Context, l *Lease, ttl time.Duration) error {
	return f.s.extendHeld(ctx, f.s.c.Metrics, l, ttl)
}

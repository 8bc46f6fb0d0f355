package locks

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// ErrNotReplicated: a grant or renewal was acknowledged by fewer replicas
// than Options.WaitReplicas within Options.WaitTimeout, so a failover to a
// replica that missed it could hand the lock to a second holder. A grant
// that fails so is given back (owner-checked) before Acquire reports it;
// Acquire retries it under its Retry policy like a taken lock, and returns
// it (a *ReplicationError) when the attempts or the context run out. A
// renewal that fails so loses the lease (ErrLockLost wrapping it).
var ErrNotReplicated = errors.New("locks: not acknowledged by enough replicas")

// ReplicationError is ErrNotReplicated with the count: Acked of Want
// replicas confirmed the write, or Err says why WAIT got no answer.
type ReplicationError struct {
	Acked, Want int
	Err         error // WAIT's own failure (timeout, connection), or nil
}

func (e *ReplicationError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%v: WAIT %d failed: %v", ErrNotReplicated, e.Want, e.Err)
	}
	return fmt.Sprintf("%v: %d of %d replicas acknowledged", ErrNotReplicated, e.Acked, e.Want)
}

// Unwrap returns ErrNotReplicated and WAIT's own error, if any.
func (e *ReplicationError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrNotReplicated, e.Err}
	}
	return []error{ErrNotReplicated}
}

// Session is one connection to one Redis node: the commands the patterns
// send, and WAIT, which counts the replicas that acknowledged the last
// write made on this same connection.
type Session interface {
	Redis
	Wait(ctx context.Context, numSlaves int, timeout time.Duration) *redis.IntCmd
}

// ReplicaWaiter is the part of the Redis seam that Options.WaitReplicas
// needs: WAIT counts acknowledgements of its own connection's last write,
// so the write and its WAIT must share a connection, which a pooled client
// does not promise from one call to the next. The package pins one itself
// for *redis.Client (Client.Conn) and *redis.ClusterClient (the master of
// the key's slot); any other seam implements ReplicaWaiter.
type ReplicaWaiter interface {
	// Session returns a connection to the node that holds key, and a
	// function that gives it back.
	Session(ctx context.Context, key string) (Session, func(), error)
}

// sessions returns how to pin a connection on r, or nil if r cannot.
func sessions(r Redis) func(ctx context.Context, key string) (Session, func(), error) {
	switch x := r.(type) {
	case ReplicaWaiter:
		return x.Session
	case *redis.Client:
		return func(context.Context, string) (Session, func(), error) {
			c := x.Conn()
			return c, func() { _ = c.Close() }, nil
		}
	case *redis.ClusterClient:
		return func(ctx context.Context, key string) (Session, func(), error) {
			m, err := x.MasterForKey(ctx, key)
			if err != nil {
				return nil, nil, err
			}
			c := m.Conn()
			return c, func() { _ = c.Close() }, nil
		}
	}
	return nil
}

// resolveWait checks and defaults WaitReplicas and WaitTimeout.
func (c *config) resolveWait() error {
	switch {
	case c.WaitReplicas < 0:
		return &OptionError{"WaitReplicas", c.WaitReplicas, "must not be negative"}
	case c.WaitTimeout < 0:
		return &OptionError{"WaitTimeout", c.WaitTimeout, "must not be negative"}
	case c.WaitReplicas == 0 && c.WaitTimeout != 0:
		return &OptionError{"WaitTimeout", c.WaitTimeout, "is set but WaitReplicas is 0 (nothing to wait for)"}
	case c.WaitReplicas == 0:
		return nil
	}
	if c.WaitTimeout == 0 {
		c.WaitTimeout = max(c.TTL/10, time.Millisecond)
	}
	c.WaitTimeout = c.WaitTimeout.Truncate(time.Millisecond)
	if c.WaitTimeout < time.Millisecond {
		return &OptionError{"WaitTimeout", c.WaitTimeout, "must be at least 1ms (WAIT 0 blocks until enough replicas answer, however long)"}
	}
	if v := c.validity(0); c.WaitTimeout >= v {
		return &OptionError{"WaitTimeout", c.WaitTimeout, "must be less than the validity the TTL leaves (" + v.String() + "): the grant would run out while waiting"}
	}
	return nil
}

// noWait refuses WaitReplicas on a pattern that does not wait for replicas.
func (o Options) noWait(pattern string) error {
	if o.WaitReplicas != 0 || o.WaitTimeout != 0 {
		return &OptionError{"WaitReplicas", strconv.Itoa(o.WaitReplicas), "is not supported by " + pattern + ": only the single-node locks Basic, Watchdog, Fenced, Reentrant and Service wait for replicas"}
	}
	return nil
}

// pinKey carries an attempt's pinned connection in its context.
type pinKey struct{}

// conn is the Redis an attempt of s runs on: its pinned connection when it
// waits for replicas, else s's seam.
func (s *single) conn(ctx context.Context) Redis { return pinnedOr(ctx, s.r) }

// pinnedOr is ctx's pinned connection, or r if it carries none.
func pinnedOr(ctx context.Context, r Redis) Redis {
	if p, ok := ctx.Value(pinKey{}).(Session); ok {
		return p
	}
	return r
}

// pinned reports whether ctx already carries a pinned connection.
func pinned(ctx context.Context) bool { _, ok := ctx.Value(pinKey{}).(Session); return ok }

// pin returns ctx carrying a connection pinned for s's key, and its release.
func (s *single) pin(ctx context.Context) (context.Context, Session, func(), error) {
	return pinWith(ctx, s.sessions, s.key)
}

// pinWith pins a connection for key with sessions.
func pinWith(ctx context.Context, sessions func(context.Context, string) (Session, func(), error), key string) (context.Context, Session, func(), error) {
	p, done, err := sessions(ctx, key)
	if err != nil {
		return nil, nil, nil, err
	}
	return context.WithValue(ctx, pinKey{}, p), p, done, nil
}

// replicated runs one acquisition attempt; with WaitReplicas it runs on a
// pinned connection followed by WAIT, and a grant that too few replicas
// confirm is given back and fails with a *ReplicationError.
func (s *single) replicated(ctx context.Context, try func(context.Context) (*Lease, error)) (*Lease, error) {
	if s.c.WaitReplicas == 0 || pinned(ctx) {
		return try(ctx)
	}
	pctx, p, done, err := s.pin(ctx)
	if err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	defer done()
	l, err := try(pctx)
	if err != nil {
		return nil, err
	}
	if err := s.waitAcks(ctx, p, l); err != nil {
		s.giveBack(ctx, p, l, err)
		return nil, wrap("acquire", s.key, err)
	}
	return l, nil
}

// replicatedExtend is extendTo on a pinned connection followed by WAIT; an
// extension that too few replicas confirm loses the lease (the key is
// given back) and returns a *ReplicationError. The lease's validity moves
// only once WAIT confirms the extension: until then a promoted replica
// may hold the key with its earlier expiry, which the lease still honours.
func (s *single) replicatedExtend(ctx context.Context, l *Lease, ttl time.Duration) (bool, error) {
	pctx, p, done, err := s.pin(ctx)
	if err != nil {
		return false, err
	}
	defer done()
	start := s.c.Clock.Now()
	ok, err := s.extendTo(pctx, l, ttl)
	if err != nil || !ok {
		return ok, err
	}
	if err := s.waitAcks(ctx, p, l); err != nil {
		s.c.Metrics.lost() // the lease ends here: the renewer and Extend count no loss for an error
		s.giveBack(ctx, p, l, fmt.Errorf("%w: renewal %w", ErrLockLost, err))
		return false, err
	}
	l.h.extend(start, s.c.validityFor(ttl, 0))
	return true, nil
}

// waitAcks sends WAIT on p for the grant or renewal of l; see confirm.
func (s *single) waitAcks(ctx context.Context, p Session, l *Lease) error {
	return s.c.confirm(ctx, p, l.h.remaining)
}

// confirm sends WAIT on p, bounded on the holder's clock by the validity
// left (left()), and checks that enough replicas confirmed in time.
func (c *config) confirm(ctx context.Context, p Session, left func() time.Duration) error {
	want := c.WaitReplicas
	wctx, cancel := c.Clock.WithTimeout(ctx, max(left(), time.Millisecond))
	defer cancel()
	n, err := p.Wait(wctx, want, c.WaitTimeout).Result()
	switch {
	case err != nil:
		return &ReplicationError{Want: want, Err: err}
	case n < int64(want):
		return &ReplicationError{Acked: int(n), Want: want}
	case left() <= 0:
		return fmt.Errorf("%w: replicas confirmed after its validity ran out", ErrNotAcquired)
	}
	return nil
}

// giveBack ends l's holding with cause and deletes the key if it still
// holds l's token, on the pinned connection (the same node).
func (s *single) giveBack(ctx context.Context, p Session, l *Lease, cause error) {
	l.h.end(cause)
	_, _ = runInt(context.WithoutCancel(ctx), p, releaseScript, []string{s.key}, l.id.token)
}

// pin returns ctx carrying a connection pinned for the lock when re waits
// for replicas (and ctx carries none yet), and the function that gives it
// back; otherwise ctx and a no-op.
func (re *Reentrant) pin(ctx context.Context) (context.Context, func(), error) {
	if re.c.WaitReplicas == 0 || pinned(ctx) {
		return ctx, func() {}, nil
	}
	pctx, _, done, err := pinWith(ctx, re.sessions, re.key)
	return pctx, done, err
}

// conn is the Redis a request of re runs on (see single.conn).
func (re *Reentrant) conn(ctx context.Context) Redis { return pinnedOr(ctx, re.r) }

// confirmed WAITs on ctx's pinned connection, if any, for the write just
// made on it; left is the validity the write leaves (see config.confirm).
func (re *Reentrant) confirmed(ctx context.Context, left func() time.Duration) error {
	p, ok := ctx.Value(pinKey{}).(Session)
	if !ok {
		return nil
	}
	return re.c.confirm(ctx, p, left)
}

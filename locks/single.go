package locks

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// single is the single-key machinery shared by Basic, Watchdog and Fenced:
// take a key with a token, release and extend it owner-checked.
type single struct {
	r      Redis
	key    string
	c      config
	probed *atomic.Bool // the probe passed (shared by copies of the value)
	last   *lastHold    // with Options.Token: the holding last granted
	// sessions pins a connection for WaitReplicas (nil without it).
	sessions func(ctx context.Context, key string) (Session, func(), error)
}

// lastHold is the holding a Locker with a caller-chosen token last
// granted: taking the lock back with the same token ends it.
type lastHold struct {
	mu sync.Mutex
	h  *hold
}

// replace records h as the last holding and ends the one before it, whose
// key now holds the new grant's TTL.
func (lh *lastHold) replace(h *hold) {
	lh.mu.Lock()
	prev := lh.h
	lh.h = h
	lh.mu.Unlock()
	if prev != nil {
		prev.end(fmt.Errorf("%w: taken back by a later Acquire with the same token", ErrLockLost))
	}
}

func newSingle(r Redis, key string, o Options) (single, error) {
	if isNil(r) {
		return single{}, &OptionError{"Redis", nilName(r), "must be set"}
	}
	if err := o.checkContextTimeout("Redis", r); err != nil {
		return single{}, err
	}
	if key == "" {
		return single{}, &OptionError{"key", `""`, "must not be empty"}
	}
	if err := o.checkToken(); err != nil {
		return single{}, err
	}
	c, err := o.resolve()
	if err != nil {
		return single{}, err
	}
	s := single{r: r, key: key, c: c, probed: new(atomic.Bool), last: new(lastHold)}
	if c.WaitReplicas > 0 {
		if s.sessions = sessions(r); s.sessions == nil {
			return single{}, &OptionError{"WaitReplicas", c.WaitReplicas, fmt.Sprintf("needs a seam that can pin a connection (*redis.Client, *redis.ClusterClient or a ReplicaWaiter); %T is none", r)}
		}
	}
	return s, nil
}

// grant turns a successful request sent at start into a lease, or, when the
// reply came too late to leave any validity, gives the lock back and fails.
func (s *single) grant(ctx context.Context, start time.Time, token string, fence int64) (*Lease, error) {
	if err := s.c.inTime(ctx, start, func(ctx context.Context) error {
		_, err := runInt(ctx, s.r, releaseScript, []string{s.key}, token)
		return err
	}); err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	return s.c.lease(s, s.key, token, fence, start), nil
}

// probe checks, once per Locker before its first SET NX, that the lock
// can be given back (scripts may run) and that the key is not of another
// type (see scripts/probe.lua).
func probe(ctx context.Context, r Redis, key string, done *atomic.Bool) error {
	if done.Load() {
		return nil
	}
	if _, err := runInt(ctx, r, probeScript, []string{key}); err != nil {
		return err
	}
	done.Store(true)
	return nil
}

// trySetNX makes one SET NX PX attempt.
func (s *single) trySetNX(ctx context.Context) (*Lease, error) {
	if err := probe(ctx, s.r, s.key, s.probed); err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	if s.c.Token != "" {
		return s.tryToken(ctx)
	}
	token := s.value(s.c.Rand.Token())
	start := s.c.Clock.Now()
	ok, err := s.conn(ctx).SetNX(ctx, s.key, token, s.c.TTL).Result()
	if err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	if !ok {
		return nil, wrap("acquire", s.key, ErrNotAcquired)
	}
	return s.grant(ctx, start, token, 0)
}

// tryToken makes one attempt with the caller-chosen Options.Token: it takes
// the lock if free or already holding the token (scripts/token_acquire.lua).
// A grant ends this Locker's earlier holding, if any: the key is one.
func (s *single) tryToken(ctx context.Context) (*Lease, error) {
	token := s.value(s.c.Token)
	start := s.c.Clock.Now()
	n, err := runInt(ctx, s.conn(ctx), tokenAcquireScript, []string{s.key}, token, s.c.ttlMS)
	if err != nil {
		return nil, wrap("acquire", s.key, err)
	}
	if n == 0 {
		return nil, wrap("acquire", s.key, ErrNotAcquired)
	}
	l, err := s.grant(ctx, start, token, 0)
	if err == nil {
		s.last.replace(l.h)
	}
	return l, err
}

// release is the owner-checked release of a lease s issued, counted into
// m; any other lease gets ErrNotHeld and touches nothing (but with a
// Pitfall.ReleaseScript, whose script runs for any lease). Renewals stop
// as the release begins (see letGo), and a release that fails still ends
// the holding (see releaseFailed).
func (s *single) release(ctx context.Context, m *Metrics, l *Lease) error {
	if err := verifyRelease(l, s, s.key); err != nil {
		if s.c.pit.releasesAny() {
			return s.releaseUnchecked(ctx, l)
		}
		return wrap("release", s.key, err)
	}
	l.h.letGo()
	n, err := runInt(ctx, s.r, s.c.pit.releaseOr(releaseScript), []string{s.key}, l.id.token)
	if err != nil {
		l.h.endPartly(releaseFailed(err))
		return wrap("release", s.key, err)
	}
	if n == 0 {
		return lostBy(m, l, "release", s.key, ErrNotHeld)
	}
	freed(m, l)
	return nil
}

// extend resets the TTL; it reports (false, nil) when the lock is not ours.
func (s *single) extend(ctx context.Context, l *Lease) (bool, error) {
	return s.extendTo(ctx, l, s.c.TTL)
}

// extendTo sets the key's TTL to ttl (whole ms); it reports (false, nil)
// when the lock is not ours.
func (s *single) extendTo(ctx context.Context, l *Lease, ttl time.Duration) (bool, error) {
	if s.c.WaitReplicas > 0 && !pinned(ctx) {
		return s.replicatedExtend(ctx, l, ttl)
	}
	start := s.c.Clock.Now()
	n, err := runInt(ctx, s.conn(ctx), s.c.pit.renewOr(extendScript), []string{s.key}, l.id.token, s.c.ttlArg(ttl))
	if err != nil {
		return false, err
	}
	if n == 0 {
		return false, nil
	}
	if !pinned(ctx) { // a replicated extension counts once WAIT confirms it
		l.h.extend(start, s.c.validityFor(ttl, 0))
	}
	return true, nil
}

// extendHeld is the owner-checked extension to ttl of a lease s issued,
// counted into m (see extendOwned).
func (s *single) extendHeld(ctx context.Context, m *Metrics, l *Lease, ttl time.Duration) error {
	return extendOwned(ctx, &s.c, m, l, s, s.key, ttl,
		func(ctx context.Context, ttl time.Duration) (bool, error) { return s.extendTo(ctx, l, ttl) },
		func() { l.h.end(ErrLockLost) })
}

// extendOwned is the owner-checked extension to ttl of a lease that by
// issued for key, counted into m. The ttl is checked first: one that
// leaves no validity after its drift allowance is refused with an
// *OptionError and touches nothing; so does a lease that verify refuses.
// extendTo asks the server, reporting whether the lease still held the
// lock; when it did not, lose ends the holding and the error is
// ErrNotHeld.
func extendOwned(ctx context.Context, c *config, m *Metrics, l *Lease, by any, key string, ttl time.Duration,
	extendTo func(context.Context, time.Duration) (bool, error), lose func()) error {
	ttl, err := c.extendTTL(ttl)
	if err != nil {
		return wrap("extend", key, err)
	}
	if err := verify(l, by, key); err != nil {
		return wrap("extend", key, err)
	}
	ok, err := extendTo(ctx, ttl)
	if err != nil {
		return wrap("extend", key, err)
	}
	if !ok {
		m.lost()
		lose()
		return wrap("extend", key, ErrNotHeld)
	}
	m.renewed()
	return nil
}

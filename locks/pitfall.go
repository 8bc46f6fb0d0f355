package locks

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	pf "github.com/locksim/locksim/internal/pitfall"
)

// pitfall is a Pitfall ready to run: its scripts compiled.
type pitfall struct {
	pf.Pitfall
	release, fencedAcquire, renew *redis.Script
}

// newPitfall compiles p's scripts; nil for no pitfall.
func newPitfall(p *pf.Pitfall) *pitfall {
	if p == nil {
		return nil
	}
	return &pitfall{Pitfall: *p, release: compiled(p.ReleaseScript),
		fencedAcquire: compiled(p.FencedAcquireScript), renew: compiled(p.RenewAfterRelease)}
}

func compiled(src string) *redis.Script {
	if src == "" {
		return nil
	}
	return redis.NewScript(src)
}

// withPitfall applies the pitfall of c's Options, after every check has
// passed as it does for the pattern: the variant refuses what the pattern
// refuses.
func (c *config) withPitfall() {
	c.pit = newPitfall(c.pitfall)
	c.ttlMS = c.ttlArg(c.TTL)
}

// ttlArg is the TTL argument of a script for ttl: whole milliseconds.
func (c *config) ttlArg(ttl time.Duration) int64 {
	if c.pit != nil && c.pit.TTLArg != nil {
		return c.pit.TTLArg(ttl)
	}
	return ttl.Milliseconds()
}

// pitfallValidity is the Pitfall's validity of a grant or renewal to ttl
// after elapsed, if it has one.
func (c *config) pitfallValidity(ttl, elapsed time.Duration) (time.Duration, bool) {
	if c.pit == nil || c.pit.Validity == nil {
		return 0, false
	}
	return c.pit.Validity(ttl, elapsed), true
}

// granted is the start and length of the validity of a new holding whose
// request was sent at start: the TTL less the drift allowance from start,
// or, with a Pitfall's Validity, what it says from now.
func (c *config) granted(start time.Time) (time.Time, time.Duration) {
	if c.pit == nil || c.pit.Validity == nil {
		return start, c.validity(0)
	}
	elapsed := c.Clock.Since(start)
	return start.Add(elapsed), c.pit.Validity(c.TTL, elapsed)
}

// releaseOr is the release script: the Pitfall's, else s.
func (p *pitfall) releaseOr(s *redis.Script) *redis.Script {
	if p != nil && p.release != nil {
		return p.release
	}
	return s
}

// fencedAcquireOr is the fenced acquisition script: the Pitfall's, else s.
func (p *pitfall) fencedAcquireOr(s *redis.Script) *redis.Script {
	if p != nil && p.fencedAcquire != nil {
		return p.fencedAcquire
	}
	return s
}

// renewOr is the renewal script: the Pitfall's, else s.
func (p *pitfall) renewOr(s *redis.Script) *redis.Script {
	if p != nil && p.renew != nil {
		return p.renew
	}
	return s
}

// releasesAny reports whether Release runs the Pitfall's script for any
// lease (the single-key patterns).
func (p *pitfall) releasesAny() bool { return p != nil && p.release != nil }

// releaseUnchecked is the release of a lease that s did not issue, or
// that is spent, with Pitfall.ReleaseScript: the script runs all the
// same, with the lease's token if it has one, and no holding ends.
func (s *single) releaseUnchecked(ctx context.Context, l *Lease) error {
	var token string
	if l != nil {
		token = l.Token
	}
	n, err := runInt(ctx, s.r, s.c.pit.release, []string{s.key}, token)
	switch {
	case err != nil:
		return wrap("release", s.key, err)
	case n == 0:
		return wrap("release", s.key, ErrNotHeld)
	}
	return nil
}

// acquireSetNX takes the lock on one node by a plain SET NX PX
// (Pitfall.NodeSetNX).
func (rl *Redlock) acquireSetNX(ctx context.Context, r Redis, token string) error {
	ok, err := r.SetNX(ctx, rl.key, token, rl.c.TTL).Result()
	if err == nil && !ok {
		return ErrNotAcquired
	}
	return err
}

// orphaned reports whether the renewal outlives the release.
func (p *pitfall) orphaned() bool { return p != nil && p.renew != nil }

// renewOrphaned hands l's renewal to a holding of its own that Release
// does not end (Pitfall.RenewAfterRelease): it renews l's key with l's
// token, extending l while l is held, until a renewal is refused.
func (w *Watchdog) renewOrphaned(l *Lease) {
	c := &w.s.c
	start, valid := c.granted(c.Clock.Now())
	z := issued(w, w.s.key, l.id.token, 0, 1, newHold(c.Clock, start, valid))
	w.rn.add(z, func(ctx context.Context) (bool, error) {
		start := c.Clock.Now()
		ok, err := w.s.extend(ctx, z)
		switch {
		case err == nil && ok:
			l.h.extend(start, c.validity(0))
		case err == nil:
			l.h.end(fmt.Errorf("%w: renewal refused", ErrLockLost))
		}
		return ok, err
	})
}

// nodeFences is where a Redlock with Pitfall.PerNodeFence collects each
// node's counter; nil otherwise.
func (rl *Redlock) nodeFences() []int64 {
	if rl.fence == "" {
		return nil
	}
	return make([]int64, len(rl.nodes))
}

// acquireFenced takes the lock on node i by the fenced acquisition
// (Pitfall.PerNodeFence), recording its counter in fences.
func (rl *Redlock) acquireFenced(ctx context.Context, i int, r Redis, token string, fences []int64) error {
	n, err := runInt(ctx, r, fencedAcquireScript, []string{rl.key, rl.fence}, token, rl.c.ttlMS)
	if err == nil && n <= 0 { // 0, or minus the PTTL: taken
		return ErrNotAcquired
	}
	fences[i] = n
	return err
}

// largest is the largest of fences, 0 for none.
func largest(fences []int64) int64 {
	var m int64
	for _, f := range fences {
		m = max(m, f)
	}
	return m
}

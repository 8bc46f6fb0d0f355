package lockstest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// property is one checked promise; check reports through t, so a broken
// locker can be shown to fail it.
type property struct {
	name    string
	applies func(Caps) bool
	check   func(r *run)
}

// properties is the suite, in the order Run runs it.
var properties = []property{
	{"MutualExclusion", always, checkMutualExclusion},
	{"OwnerCheckedRelease", always, checkOwnerCheckedRelease},
	{"ForeignLease", always, checkForeignLease},
	{"StaleLease", always, checkStaleLease},
	{"ExpiredLease", expiring, checkExpiredLease},
	{"ExpiryAfterTTL", expiring, checkExpiry},
	{"Extend", extending, checkExtend},
	{"Reentry", reentrant, checkReentry},
	{"ReentryRefreshesTTL", reentrant, checkReentryRefresh},
	{"FreshAfterFailedRelease", reentrant, checkFreshAfterFailedRelease},
	{"WatchdogOutlivesTTL", watchdog, checkWatchdogOutlives},
	{"WatchdogStopsOnRelease", watchdog, checkWatchdogStops},
	{"WatchdogReportsLoss", watchdog, checkWatchdogLoss},
	{"WatchdogCutTTL", watchdog, checkWatchdogCutTTL},
	{"WatchdogStopsOnFailedRelease", watchdog, checkWatchdogStopsOnFailedRelease},
	{"RedlockMinorityDown", redlock, checkMinorityDown},
	{"RedlockMajorityDown", redlock, checkMajorityDown},
	{"RedlockExtendResets", redlockExtending, checkRedlockExtendResets},
	{"RedlockExtendLostMajority", redlockExtending, checkRedlockExtendLostMajority},
	{"RedlockExtendLost", redlockExtending, checkRedlockExtendLost},
	{"RedlockReleaseLost", redlock, checkRedlockReleaseLost},
	{"FenceIncreases", fenced, checkFenceIncreases},
	{"FenceAcrossExpiry", fencedExpiring, checkFenceAcrossExpiry},
	{"CancelledContext", always, checkCancelled},
	{"DeadlineWhileTaken", always, checkDeadline},
	{"OptionValidation", always, checkOptions},
	{"ServerTTL", ttlReader, checkServerTTL},
}

func always(Caps) bool      { return true }
func expiring(c Caps) bool  { return !c.Watchdog }
func extending(c Caps) bool { return c.Extender && !c.Watchdog }
func reentrant(c Caps) bool { return c.Reentrant }
func watchdog(c Caps) bool  { return c.Watchdog }
func redlock(c Caps) bool   { return c.Redlock }
func redlockExtending(c Caps) bool {
	return c.Redlock && c.Extender && !c.Watchdog
}
func fenced(c Caps) bool         { return c.Fenced }
func fencedExpiring(c Caps) bool { return c.Fenced && !c.Watchdog }
func ttlReader(c Caps) bool      { return c.TTL }

// Run checks every property that applies to env.Caps, each in a subtest of
// t, starting each from empty nodes (Backend.Reset).
func Run(t *testing.T, env Env) {
	t.Helper()
	if env.Backend == nil || env.New == nil {
		t.Fatal("lockstest.Run: Env needs a Backend and a New factory")
	}
	if n := env.Backend.Nodes(); n < env.nodes() {
		t.Fatalf("lockstest.Run: Env.Nodes is %d but the backend has %d node(s)", env.nodes(), n)
	}
	var stalled func() time.Duration
	if s, ok := env.Backend.(Staller); ok {
		stalled = s.Stall
	}
	for _, p := range properties {
		if !p.applies(env.Caps) {
			continue
		}
		t.Run(p.name, func(t *testing.T) {
			checkAttempts(t, stalled, env.ttl(), func(t testing.TB) { p.check(newRun(t, env, p.name)) })
		})
	}
}

// run is one property's check: its env, its key and its clients.
type run struct {
	t     testing.TB
	env   Env
	key   string
	ctx   context.Context
	taken error // what Acquire returns when the lock is taken
}

func newRun(t testing.TB, env Env, name string) *run {
	env.Backend.Reset(t)
	taken := locks.ErrNotAcquired
	if env.Caps.Redlock {
		taken = locks.ErrQuorum
	}
	return &run{t: t, env: env, key: "lockstest:" + name, ctx: t.Context(), taken: taken}
}

func (r *run) ttl() time.Duration { return r.env.ttl() }

// options are the defaults every locker of the suite gets: the env's TTL,
// one attempt per Acquire (Service retries forever otherwise), the
// backend's clock, and a Redlock node timeout of TTL/2 (the default TTL/10
// is short for a loopback round trip on a loaded machine under -race, and
// a timed-out node is a failure the suite did not inject); then each of
// set, in order.
func (r *run) options(set ...func(*locks.Options)) locks.Options {
	o := locks.Options{
		TTL:         r.ttl(),
		Retry:       locks.Retry{Attempts: 1},
		Clock:       r.env.Backend.Clock(),
		NodeTimeout: r.ttl() / 2,
	}
	for _, f := range set {
		f(&o)
	}
	return o
}

// retryForever makes Acquire retry until its context is done.
func retryForever(o *locks.Options) {
	o.Retry = locks.Retry{Attempts: -1, Delay: 5 * time.Millisecond, MaxDelay: 20 * time.Millisecond}
}

// client is one independent client: its own locker and connections.
type client struct {
	r *run
	n int
	l locks.Locker
}

func (r *run) client(n int, set ...func(*locks.Options)) *client {
	r.t.Helper()
	conns := r.env.Backend.Connect(r.t)[:r.env.nodes()]
	r.warm(conns)
	l, err := r.env.New(conns, r.key, r.options(set...))
	if err != nil {
		r.t.Fatalf("New(client %d) = %v, want a locker", n, err)
	}
	return &client{r: r, n: n, l: l}
}

// warm opens a connection to each node that is up (errors are ignored:
// some may be down), so that no property's first request pays for the dial.
func (r *run) warm(conns []locks.Redis) {
	for _, c := range conns {
		if p, ok := c.(interface {
			Ping(context.Context) *redis.StatusCmd
		}); ok {
			_ = p.Ping(r.ctx).Err()
		}
	}
}

// acquire takes the lock or stops the test; the lease is released when the
// test ends, so no watchdog outlives it.
func (c *client) acquire(when string) *locks.Lease {
	c.r.t.Helper()
	l, err := c.l.Acquire(c.r.ctx)
	if err != nil {
		c.r.t.Fatalf("Acquire(client %d)%s = %v, want a lease", c.n, when, err)
	}
	c.r.t.Cleanup(func() {
		if l.Err() == nil {
			_ = c.l.Release(context.Background(), l)
		}
	})
	return l
}

// wantTaken checks that an Acquire by c fails because the lock is taken.
func (c *client) wantTaken(when string) {
	c.r.t.Helper()
	l, err := c.l.Acquire(c.r.ctx)
	if l != nil {
		c.r.t.Cleanup(func() { _ = c.l.Release(context.Background(), l) })
	}
	if !errors.Is(err, c.r.taken) {
		c.r.t.Errorf("Acquire(client %d)%s = %v, want %v", c.n, when, err, c.r.taken)
	}
}

func (c *client) release(l *locks.Lease, when string) {
	c.r.t.Helper()
	if err := c.l.Release(c.r.ctx, l); err != nil {
		c.r.t.Errorf("Release(client %d)%s = %v, want nil", c.n, when, err)
	}
}

// wantReleaseNotHeld checks that releasing l fails with ErrNotHeld.
func (c *client) wantReleaseNotHeld(l *locks.Lease, when string) {
	c.r.t.Helper()
	if err := c.l.Release(c.r.ctx, l); !errors.Is(err, locks.ErrNotHeld) {
		c.r.t.Errorf("Release(client %d)%s = %v, want ErrNotHeld", c.n, when, err)
	}
}

func (r *run) advance(d time.Duration) {
	r.t.Helper()
	r.env.Backend.Advance(r.t, d)
}

// deleteKey deletes key on every node the pattern uses, behind the lockers'
// backs (as an expiry or a lost write would).
func (r *run) deleteKey(key string) {
	r.t.Helper()
	for i := range r.env.nodes() {
		if err := r.env.Backend.Admin(r.t, i).Del(r.ctx, key).Err(); err != nil {
			r.t.Fatalf("DEL %q on node %d: %v", key, i, err)
		}
	}
}

// pttl returns key's PTTL on node 0 (-2 if absent, -1 if it never expires).
func (r *run) pttl(key string) time.Duration {
	r.t.Helper()
	d, err := r.env.Backend.Admin(r.t, 0).PTTL(r.ctx, key).Result()
	if err != nil {
		r.t.Fatalf("PTTL %q: %v", key, err)
	}
	return d
}

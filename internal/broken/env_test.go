package broken_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
	"github.com/locksim/locksim/pattern"
)

// env runs one scenario against one catalog pattern, correct or broken:
// miniredis nodes whose TTLs move with a manual clock (lockstest), lockers
// built through the catalog exactly as the simulator builds them.
type env struct {
	t     *testing.T
	p     pattern.Pattern
	ttl   time.Duration
	b     *lockstest.Miniredis
	rs    []locks.Redis
	nodes []*node
	clk   clock.Clock
	n     int
	ctx   context.Context
	lease map[string]*locks.Lease // by the name the scenario gave it
	by    map[string]locks.Locker // the locker that issued each lease
}

func newEnv(t *testing.T, name string, ttl time.Duration) *env {
	t.Helper()
	p, err := pattern.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	b := lockstest.StartMiniredis(t, p.Nodes)
	clk := b.ManualClock()
	clk.Sequential = true // node requests made slow by a node's delay happen one after another
	e := &env{t: t, p: p, ttl: ttl, b: b, clk: clk, ctx: context.Background(), lease: map[string]*locks.Lease{}, by: map[string]locks.Locker{}}
	for _, r := range b.Connect(t) {
		n := &node{Redis: r, e: e}
		e.nodes = append(e.nodes, n)
		e.rs = append(e.rs, n)
	}
	t.Cleanup(e.releaseAll)
	return e
}

// releaseAll gives back every lease, in name order, so that no watchdog
// outlives the test.
func (e *env) releaseAll() {
	names := slices.Sorted(maps.Keys(e.lease))
	for _, n := range names {
		_ = e.by[n].Release(e.ctx, e.lease[n])
	}
}

// locker builds one client's locker (its own owner, one acquisition
// attempt, deterministic tokens).
func (e *env) locker() locks.Locker {
	e.t.Helper()
	e.n++
	name := fmt.Sprintf("c%d", e.n)
	o := locks.Options{TTL: e.ttl, Clock: e.clk, Rand: locks.NewSeededRand(1, name),
		Retry: locks.Retry{Attempts: 1}, NodeTimeout: e.ttl}
	if strings.HasPrefix(e.p.Name, "reentrant") || strings.HasPrefix(e.p.Name, "service") {
		o.Owner = name // only the reentrant patterns have an owner
	}
	l, err := e.p.New(e.rs, "res", o)
	if err != nil {
		e.t.Fatalf("%s: New: %v", e.p.Name, err)
	}
	return l
}

// acquire takes the lock as name and reports whether it got it.
func (e *env) acquire(lk locks.Locker, name string) bool {
	e.t.Helper()
	l, err := lk.Acquire(e.ctx)
	if err != nil {
		e.t.Logf("%s: %s: Acquire: %v", e.p.Name, name, err)
		return false
	}
	e.lease[name], e.by[name] = l, lk
	return true
}

func (e *env) mustAcquire(lk locks.Locker, name string) {
	e.t.Helper()
	if !e.acquire(lk, name) {
		e.t.Fatalf("%s: %s could not acquire a free lock", e.p.Name, name)
	}
}

func (e *env) release(lk locks.Locker, name string) error {
	err := lk.Release(e.ctx, e.lease[name])
	e.t.Logf("%s: %s: Release = %v", e.p.Name, name, err)
	return err
}

func (e *env) advance(d time.Duration) { e.b.Advance(e.t, d) }

// relying lists the named leases whose holders may rely on them now.
func (e *env) relying(names ...string) []string {
	var out []string
	for _, n := range names {
		if l, ok := e.lease[n]; ok && l.Err() == nil {
			out = append(out, n)
		}
	}
	return out
}

// twoHolders is the Mutex violation: more than one holder relies on the
// lock at this instant.
func (e *env) twoHolders(names ...string) string {
	if r := e.relying(names...); len(r) > 1 {
		return fmt.Sprintf("%v all rely on the lock at once", r)
	}
	return ""
}

// node is one node as the scenario shapes it: down (refusing every
// request, keeping its data) or slow (the first request of an attempt, a
// SET NX or a script's EVALSHA, takes delay of manual time to reach the
// server; the EVAL that follows a NOSCRIPT does not).
type node struct {
	locks.Redis
	e     *env
	delay time.Duration
	down  bool
}

var errDown = errors.New("node down (test)")

func (n *node) SetNX(ctx context.Context, k string, v any, ttl time.Duration) *redis.BoolCmd {
	if n.down {
		c := redis.NewBoolCmd(ctx)
		c.SetErr(errDown)
		return c
	}
	if n.delay > 0 {
		n.e.advance(n.delay)
	}
	return n.Redis.SetNX(ctx, k, v, ttl)
}

func (n *node) Eval(ctx context.Context, src string, keys []string, args ...any) *redis.Cmd {
	if n.down {
		return refused(ctx)
	}
	return n.Redis.Eval(ctx, src, keys, args...)
}

func (n *node) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	if n.down {
		return refused(ctx)
	}
	if n.delay > 0 {
		n.e.advance(n.delay)
	}
	return n.Redis.EvalSha(ctx, sha, keys, args...)
}

func refused(ctx context.Context) *redis.Cmd {
	c := redis.NewCmd(ctx)
	c.SetErr(errDown)
	return c
}

// down takes the listed nodes down and brings every other one up.
func (e *env) down(nodes ...int) {
	for i, n := range e.nodes {
		n.down = slices.Contains(nodes, i)
	}
}

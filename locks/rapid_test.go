package locks_test

// State-machine tests (pgregory.net/rapid) of every correct pattern against
// the plain reference models of package model, over miniredis with time
// moved by the test.
//
// Time: the lockers run on a stepClock, a fake clock.Clock whose Advance
// also moves every node's TTLs (FastForward), one pending timer at a time,
// so the Watchdog's and the Service's background renewals run for real, at
// exactly the instants they ask for, and the model is stepped through the
// same instants. Acquisitions make one attempt (no retry sleeps), so the
// test's own calls never wait on the fake clock.
//
// What is compared after every step: each node's key (value, hold count,
// remaining TTL) and fence counter against the model; each lease's own view
// (Err nil exactly while the model says the holder may rely on it); at most
// one holder relies on the lock, and only while the model says it holds it;
// fencing tokens strictly increase. Failures shrink to a minimal sequence
// and are kept in testdata/rapid/<Test>/ so they replay on every run.

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
	"pgregory.net/rapid"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// rapidOwners is the number of competing clients in every machine.
const rapidOwners = 3

// rapidWorld is the Redis side of the machines: n miniredis nodes reached
// over TCP, each behind a switch that can take it down (it refuses every
// request; its data stays and its TTLs keep moving, like a partitioned
// node). The servers outlive the checks; each check starts from flushed
// nodes and a fresh clock.
type rapidWorld struct {
	servers []*miniredis.Miniredis
	nodes   []*rapidNode
	clk     *lockstest.ManualClock
}

func newRapidWorld(t *testing.T, n int) *rapidWorld {
	w := &rapidWorld{}
	for range n {
		m := miniredis.RunT(t)
		c := redis.NewClient(&redis.Options{
			Addr: m.Addr(), MaxRetries: -1, DialerRetries: 1, DisableIdentity: true,
			MaintNotificationsConfig: &maintnotifications.Config{Mode: maintnotifications.ModeDisabled},
			ContextTimeoutEnabled:    true,
		})
		t.Cleanup(func() { _ = c.Close() })
		w.servers = append(w.servers, m)
		w.nodes = append(w.nodes, &rapidNode{Client: c})
	}
	return w
}

// reset starts a check: flushed nodes, all up, a fresh clock at the epoch,
// closed (its goroutines waited for) when the check ends.
func (w *rapidWorld) reset(t *rapid.T) {
	for i, m := range w.servers {
		m.FlushAll()
		w.nodes[i].down = false
	}
	w.clk = newStepClock(func(d time.Duration) {
		for _, m := range w.servers {
			m.FastForward(d)
		}
	})
	t.Cleanup(w.clk.Close)
}

// now is the clock's time since the epoch: the model's time.
func (w *rapidWorld) now() time.Duration { return w.clk.Since(stepEpoch) }

func (w *rapidWorld) redis() []locks.Redis {
	out := make([]locks.Redis, len(w.nodes))
	for i, n := range w.nodes {
		out[i] = n
	}
	return out
}

// options are one owner's: the fake clock, a seeded token source, one
// acquisition attempt.
func (w *rapidWorld) options(ttl time.Duration, seed uint64, owner int) locks.Options {
	return locks.Options{TTL: ttl, Clock: w.clk, Rand: locks.NewSeededRand(seed, fmt.Sprintf("o%d", owner)),
		Retry: locks.Retry{Attempts: 1}}
}

// rapidNode is a node that can be taken down.
type rapidNode struct {
	*redis.Client
	down bool // only changed between steps, while nothing else runs
}

var errNodeDown = errors.New("node down (test)")

func (n *rapidNode) refused(ctx context.Context) *redis.Cmd {
	c := redis.NewCmd(ctx)
	c.SetErr(errNodeDown)
	return c
}

func (n *rapidNode) Eval(ctx context.Context, s string, k []string, a ...any) *redis.Cmd {
	if n.down {
		return n.refused(ctx)
	}
	return n.Client.Eval(ctx, s, k, a...)
}

func (n *rapidNode) EvalSha(ctx context.Context, s string, k []string, a ...any) *redis.Cmd {
	if n.down {
		return n.refused(ctx)
	}
	return n.Client.EvalSha(ctx, s, k, a...)
}

func (n *rapidNode) SetNX(ctx context.Context, k string, v any, ttl time.Duration) *redis.BoolCmd {
	if n.down {
		c := redis.NewBoolCmd(ctx)
		c.SetErr(errNodeDown)
		return c
	}
	return n.Client.SetNX(ctx, k, v, ttl)
}

// rapidTTL draws the check's TTL: from 10ms, where the drift allowance's
// 2ms is a fifth of it, to a second.
func rapidTTL(t *rapid.T) time.Duration {
	return time.Duration(rapid.IntRange(10, 1000).Draw(t, "ttl_ms")) * time.Millisecond
}

// validity is what a grant made with no elapsed time leaves the holder:
// TTL − (TTL × 0.01 + 2ms), the default drift allowance.
func grantValidity(ttl time.Duration) time.Duration {
	return ttl - time.Duration(float64(ttl)*0.01) - 2*time.Millisecond
}

// drawAdvance draws how far to move time: often to an edge that matters (a
// renewal, the end of the validity, the TTL, a millisecond either side),
// otherwise anywhere up to one and a half TTLs.
func drawAdvance(t *rapid.T, ttl time.Duration) time.Duration {
	v := grantValidity(ttl)
	edges := []time.Duration{time.Millisecond, ttl / 3, v - time.Millisecond, v, ttl - time.Millisecond, ttl, ttl + time.Millisecond}
	if rapid.Bool().Draw(t, "to_edge") {
		return rapid.SampledFrom(edges).Draw(t, "step")
	}
	return time.Duration(rapid.Int64Range(0, int64(ttl*3/2)/1e6).Draw(t, "step_ms")) * time.Millisecond
}

// trackedLease is a lease as the machine predicts the holder's view of it.
type trackedLease struct {
	l       *locks.Lease
	owner   int
	until   time.Duration // the holder may rely on the lease before this time
	ended   bool          // released, or its loss detected
	renewAt time.Duration // next watchdog renewal (watchdog patterns)
	exposed bool          // granted before a restart without persistence
}

// protected drops the leases that a restart without persistence exposed:
// the mutual-exclusion checks leave them out.
func protected(leases []*trackedLease) []*trackedLease {
	var out []*trackedLease
	for _, tl := range leases {
		if !tl.exposed {
			out = append(out, tl)
		}
	}
	return out
}

// relied reports whether the machine says the holder may rely on tl now.
func (tl *trackedLease) relied(now time.Duration) bool { return !tl.ended && now < tl.until }

// checkLeaseViews compares each lease's own view with the prediction and
// returns the leases the holders rely on now.
func checkLeaseViews(t *rapid.T, leases []*trackedLease, now time.Duration) []*trackedLease {
	var live []*trackedLease
	for _, tl := range leases {
		got := tl.l.Err() == nil
		if want := tl.relied(now); got != want {
			t.Fatalf("lease %s of o%d at %v: Err() = %v, want relied-on = %v (until %v, ended %v)",
				tl.l.Token, tl.owner, now, tl.l.Err(), want, tl.until, tl.ended)
		}
		if got {
			live = append(live, tl)
		} else if !closed(tl.l.Done()) {
			t.Fatalf("lease %s of o%d: Err() = %v but Done is open", tl.l.Token, tl.owner, tl.l.Err())
		}
	}
	return live
}

func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func drawFrom[T any](t *rapid.T, xs []T, label string) T {
	return xs[rapid.IntRange(0, len(xs)-1).Draw(t, label)]
}

func requireNotHeld(t *rapid.T, op string, err error) {
	if !errors.Is(err, locks.ErrNotHeld) {
		t.Fatalf("%s = %v, want ErrNotHeld", op, err)
	}
}

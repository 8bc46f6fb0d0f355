package locks

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// This file holds the test environments of the fair lock, the read-write
// lock, the semaphore and Inspect: miniredis with time moved by the test,
// and real redis-server processes (skipped without redis-server, required
// under CI=true).

// extEnv is one Redis server for a test.
type extEnv struct {
	mr   *miniredis.Miniredis // nil on real Redis
	addr string
}

// client opens a connection of its own, closed when t ends.
func (e *extEnv) client(t testing.TB) *redis.Client {
	t.Helper()
	c := redis.NewClient(&redis.Options{Addr: e.addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	return c
}

func extMini(t testing.TB) *extEnv {
	t.Helper()
	m := miniredis.RunT(t)
	return &extEnv{mr: m, addr: m.Addr()}
}

func extReal(t testing.TB) *extEnv {
	t.Helper()
	return &extEnv{addr: redistest.Require(t, 1)[0].Addr}
}

// extBoth runs fn over miniredis and over a real redis-server.
func extBoth(t *testing.T, fn func(t *testing.T, e *extEnv)) {
	t.Run("miniredis", func(t *testing.T) { fn(t, extMini(t)) })
	t.Run("redis-server", func(t *testing.T) { fn(t, extReal(t)) })
}

// extName is a lock name unique to the test.
func extName(t testing.TB) string { return strings.ReplaceAll(t.Name(), "/", ".") }

// extClock is the clock of single-goroutine tests over miniredis: the
// manual clock under SleepMoves, whose time moves only when the lock code
// sleeps, with the server's TTLs moving with it. Its contexts time out only
// when a sleep moves the time past them: tests bound their waits with
// Retry.Attempts.
type extClock = clocktest.ManualClock

// extEpoch is where the extClocks start.
var extEpoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// newExtClock is an extClock that moves the server's TTLs with
// FastForward.
func newExtClock(mr *miniredis.Miniredis) *extClock {
	return sleepMoves(clocktest.NewManualClock(extEpoch, mr.FastForward))
}

// newExtClockTTL is an extClock that moves the server's clock with SetTime
// under ClockTTL (TTLs follow the server's clock, as a simulated node's do)
// instead of FastForward.
func newExtClockTTL(mr *miniredis.Miniredis) *extClock {
	var c *extClock
	c = sleepMoves(clocktest.NewManualClock(extEpoch, func(time.Duration) { mr.SetTime(c.Now()) }))
	mr.SetTime(extEpoch)
	mr.ClockTTL(true)
	return c
}

// sleepMoves sets the switches of a single-goroutine test on c.
func sleepMoves(c *extClock) *extClock {
	c.SleepMoves = true
	c.Sequential = true
	return c
}

// extTimeModes runs fn with each way of moving miniredis's time.
func extTimeModes(t *testing.T, fn func(t *testing.T, e *extEnv, clk *extClock)) {
	modes := []struct {
		name string
		mk   func(*miniredis.Miniredis) *extClock
	}{{"FastForward", newExtClock}, {"ClockTTL", newExtClockTTL}}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			e := extMini(t)
			fn(t, e, m.mk(e.mr))
		})
	}
}

// extFastOpts are options for real-clock tests: a long TTL (nothing expires
// unless the test says so) and quick polling. Each client draws tokens from
// its own source.
func extFastOpts() Options {
	return Options{TTL: 10 * time.Second,
		Retry: Retry{Attempts: -1, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond}}
}

// extStepOpts are options for extClock tests: each client its own seeded
// tokens, attempts bounded so that a wait that never ends fails the test.
func extStepOpts(clk clock.Clock, name string, attempts int) Options {
	return Options{TTL: time.Second, Clock: clk, Rand: NewSeededRand(7, name),
		Retry: Retry{Attempts: attempts, Delay: 10 * time.Millisecond, MaxDelay: 50 * time.Millisecond}}
}

// extWaitFor polls cond in real time until it holds or 10s pass: for the
// real-clock tests, whose goroutines no clock sees.
func extWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// inspect is Inspect that fails the test on error.
func extInspect(t *testing.T, r Redis, name string, kind Kind) Info {
	t.Helper()
	info, err := Inspect(context.Background(), r, name, kind)
	if err != nil {
		t.Fatalf("Inspect(%q, %s) = %v", name, kind, err)
	}
	return info
}

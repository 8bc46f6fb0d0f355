package locks

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/clock/clocktest"
)

// TestMain fails the package's tests if any goroutine outlives them: a
// watchdog that a Release or a loss did not stop, or a connection a test
// did not close. A lease's validity timer is exempt: the tests that play a
// crashed holder abandon leases on purpose, and their timers run until
// the validity ends (TestReleaseStopsValidityTimer proves Release stops
// it). So is childproc's starter, which runs for the life of the process
// once a test has started a redis-server.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/locksim/locksim/locks.(*hold).expire"),
		goleak.IgnoreAnyFunction("github.com/locksim/locksim/childproc.starter"))
}

// TestReleaseStopsValidityTimer: on a Clock without AfterFunc (the
// simulator's), the goroutine that closes Done when the validity runs out
// (and a watchdog's, where there is one) ends on Release, for every
// single-key pattern. TestValidityTimerStartsNoGoroutine is the same for
// a Clock with AfterFunc.
func TestReleaseStopsValidityTimer(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, tc := range []struct {
		name string
		bg   int // goroutines a holding runs: its timer, and a watchdog
		new  func(o Options) (Locker, error)
	}{
		{"Basic", 1, func(o Options) (Locker, error) { return NewBasic(rdb, "t:basic", o) }},
		{"Reentrant", 1, func(o Options) (Locker, error) { return NewReentrant(rdb, "t:re", o) }},
		{"Fenced", 1, func(o Options) (Locker, error) { return NewFenced(rdb, "t:fe", o) }},
		{"Watchdog", 2, func(o Options) (Locker, error) { return NewWatchdog(rdb, "t:wd", o) }},
		{"Service", 2, func(o Options) (Locker, error) { return NewService(rdb, "t:se", o) }},
	} {
		clk := newCountingClock(t)
		l := extMust(tc.new(Options{TTL: time.Hour, Clock: goClock{clk}}))
		lease, err := l.Acquire(context.Background())
		if err != nil {
			t.Fatalf("%s: Acquire = %v", tc.name, err)
		}
		if n := clk.runningWithin(tc.bg); n != tc.bg {
			t.Errorf("%s: %d background goroutines after Acquire, want %d", tc.name, n, tc.bg)
		}
		if err := l.Release(context.Background(), lease); err != nil {
			t.Fatalf("%s: Release = %v", tc.name, err)
		}
		if err := clk.Advance(idleLinger); err != nil { // a renewal loop outlives its last holding by its linger
			t.Fatal(err)
		}
		if n := clk.runningWithin(0); n != 0 {
			t.Errorf("%s: %d background goroutines after Release and the linger, want 0", tc.name, n)
		}
	}
}

// countingClock is a manual clock (clocktest.ManualClock: its time moves
// only when the test says) that also counts its Go calls.
type countingClock struct {
	*clocktest.ManualClock
	started atomic.Int64 // every Go call
}

// newCountingClock returns a countingClock at extEpoch, closed when the
// test ends.
func newCountingClock(t *testing.T) *countingClock {
	c := &countingClock{ManualClock: clocktest.NewManualClock(extEpoch, nil)}
	t.Cleanup(c.Close)
	return c
}

func (c *countingClock) Go(fn func()) {
	c.started.Add(1)
	c.ManualClock.Go(fn)
}

// goClock is a Clock with no more than the Clock interface's methods (no
// AfterFunc): lock code waits on it through Go and Sleep.
type goClock struct{ clock.Clock }

// runningWithin waits up to 5s (real time: goroutines that were told to
// end return when the Go runtime gets to them, seen by no clock) for want
// goroutines started by Go to run, and returns how many do.
func (c *countingClock) runningWithin(want int) int {
	clocktest.Eventually(5*time.Second, func() bool { return c.Running() == want })
	return c.Running()
}

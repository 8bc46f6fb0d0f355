package locks

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine outlives them: a
// watchdog that a Release or a loss did not stop, or a connection a test
// did not close. A lease's validity timer is exempt: the tests that play a
// crashed holder abandon leases on purpose, and their timers run until
// the validity ends (TestReleaseStopsValidityTimer proves Release stops
// it).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/locksim/locksim/locks.(*hold).expire"))
}

// TestReleaseStopsValidityTimer: the goroutine that closes Done when the
// validity runs out ends on Release, for every single-key pattern.
func TestReleaseStopsValidityTimer(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1})
	t.Cleanup(func() { rdb.Close() })
	o := Options{TTL: time.Hour}
	for name, l := range map[string]Locker{
		"Basic": extMust(NewBasic(rdb, "t:basic", o)), "Reentrant": extMust(NewReentrant(rdb, "t:re", o)),
		"Fenced": extMust(NewFenced(rdb, "t:fe", o)), "Service": extMust(NewService(rdb, "t:se", o)),
		"Watchdog": extMust(NewWatchdog(rdb, "t:wd", o)),
	} {
		before := timers()
		lease, err := l.Acquire(context.Background())
		if err != nil {
			t.Fatalf("%s: Acquire = %v", name, err)
		}
		if n := timersWithin(before + 1); n != before+1 {
			t.Errorf("%s: %d validity timers 5s after Acquire, want %d", name, n, before+1)
		}
		if err := l.Release(context.Background(), lease); err != nil {
			t.Fatalf("%s: Release = %v", name, err)
		}
		if n := timersWithin(before); n != before {
			t.Errorf("%s: %d validity timers 5s after Release, want %d", name, n, before)
		}
	}
}

// timersWithin waits up to 5s for want timers to run and returns how many
// do.
func timersWithin(want int) int {
	deadline := time.Now().Add(5 * time.Second)
	for timers() != want && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	return timers()
}

// timers counts the goroutines running a lease's validity timer.
func timers() int {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	return strings.Count(string(buf), "locks.(*hold).expire")
}

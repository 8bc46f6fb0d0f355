package locks

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// TestRenewalLoopStartsOncePerLocker: a Watchdog or Service that acquires
// and releases in a tight loop starts one goroutine per holding (its
// validity timer) and one renewal loop in all, not a watchdog per
// holding; once idle it runs none.
func TestRenewalLoopStartsOncePerLocker(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	const cycles = 20
	for _, tc := range []struct {
		name string
		new  func(o Options) (Locker, error)
	}{
		{"Watchdog", func(o Options) (Locker, error) { return NewWatchdog(rdb, "t:loop:wd", o) }},
		{"Service", func(o Options) (Locker, error) { return NewService(rdb, "t:loop:se", o) }},
	} {
		clk := newCountingClock(t)
		l := extMust(tc.new(Options{TTL: 10 * time.Second, Clock: clk}))
		ctx := context.Background()
		for range cycles {
			lease, err := l.Acquire(ctx)
			if err != nil {
				t.Fatalf("%s: Acquire = %v", tc.name, err)
			}
			if err := l.Release(ctx, lease); err != nil {
				t.Fatalf("%s: Release = %v", tc.name, err)
			}
		}
		if got, want := clk.started.Load(), int64(cycles+1); got != want {
			t.Errorf("%s: %d goroutines started over %d cycles, want %d (a timer per holding, one renewal loop)", tc.name, got, cycles, want)
		}
		if err := clk.Advance(idleLinger); err != nil {
			t.Fatal(err)
		}
		if n := clk.runningWithin(0); n != 0 {
			t.Errorf("%s: %d background goroutines a linger after the last Release, want 0", tc.name, n)
		}
	}
}

// TestRenewalLoopRenewsEveryHolding: one loop renews N holdings, each on
// its own schedule, with one goroutine besides the holdings' timers; a
// refused renewal ends only its own holding (Done closed at once), and the
// loop stops once the last holding ends.
func TestRenewalLoopRenewsEveryHolding(t *testing.T) {
	const n = 5
	clk := newCountingClock(t)
	c := &config{Options: Options{TTL: time.Second, Clock: clk, RenewEvery: 20 * time.Millisecond}}
	rn := newRenewer(c, nil)
	var leases [n]*Lease
	var calls [n]atomic.Int64
	var refuse atomic.Bool
	for i := range leases {
		start := clk.Now()
		leases[i] = issued(rn, "k", "t", 0, 1, newHold(clk, start, time.Second))
		l := leases[i]
		rn.add(l, func(context.Context) (bool, error) {
			calls[i].Add(1)
			if i == 0 && refuse.Load() {
				return false, nil
			}
			l.h.extend(clk.Now(), time.Second)
			return true, nil
		})
	}
	if got := clk.runningWithin(n + 1); got != n+1 {
		t.Fatalf("%d goroutines run for %d holdings, want %d (their timers and one loop)", got, n, n+1)
	}
	if err := clk.Advance(3 * c.RenewEvery); err != nil {
		t.Fatal(err)
	}
	for i := range leases {
		if calls[i].Load() < 3 {
			t.Fatalf("holding %d renewed %d times in 3 × RenewEvery, want at least 3", i, calls[i].Load())
		}
	}
	if got := clk.Running(); got != n+1 {
		t.Errorf("%d goroutines while renewing, want %d", got, n+1)
	}
	refuse.Store(true)
	if err := clk.Advance(c.RenewEvery); err != nil {
		t.Fatal(err)
	}
	select {
	case <-leases[0].Done():
	default:
		t.Fatal("a refused renewal left Done open")
	}
	for i, l := range leases[1:] {
		if err := l.Err(); err != nil {
			t.Errorf("holding %d: Err = %v after another holding's refusal, want nil", i+1, err)
		}
		l.h.end(ErrReleased)
	}
	if err := clk.Advance(idleLinger); err != nil { // the loop outlives its last holding by its linger
		t.Fatal(err)
	}
	if got := clk.runningWithin(0); got != 0 {
		t.Errorf("%d goroutines a linger after every holding ended, want 0", got)
	}
	if got := clk.started.Load(); got != n+1 {
		t.Errorf("%d goroutines started, want %d", got, n+1)
	}
}

package locks

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
)

// timerClock is the real clock, counting the goroutines started by Go and
// the AfterFunc timers armed and not yet stopped or fired.
type timerClock struct {
	clock.Real
	started atomic.Int64 // every Go call
	armed   atomic.Int64
}

func (c *timerClock) Go(fn func()) {
	c.started.Add(1)
	go fn()
}

func (c *timerClock) AfterFunc(d time.Duration, fn func()) func() bool {
	c.armed.Add(1)
	var once atomic.Bool
	settle := func() bool { return once.CompareAndSwap(false, true) }
	t := time.AfterFunc(d, func() {
		if settle() {
			c.armed.Add(-1)
		}
		fn()
	})
	return func() bool {
		stopped := t.Stop()
		if stopped && settle() {
			c.armed.Add(-1)
		}
		return stopped
	}
}

// TestValidityTimerStartsNoGoroutine: on a Clock with AfterFunc (the real
// one), a holding's validity timer is a timer, not a goroutine sleeping
// until the validity runs out, and Release stops it.
func TestValidityTimerStartsNoGoroutine(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, tc := range []struct {
		name string
		new  func(o Options) (Locker, error)
	}{
		{"Basic", func(o Options) (Locker, error) { return NewBasic(rdb, "vt:basic", o) }},
		{"Reentrant", func(o Options) (Locker, error) { return NewReentrant(rdb, "vt:re", o) }},
		{"Fenced", func(o Options) (Locker, error) { return NewFenced(rdb, "vt:fe", o) }},
		{"Fair", func(o Options) (Locker, error) { return NewFair(rdb, "vt:fair", o) }},
		{"Semaphore", func(o Options) (Locker, error) { return NewSemaphore(rdb, "vt:sem", 2, o) }},
	} {
		clk := &timerClock{}
		l := extMust(tc.new(Options{TTL: time.Hour, Clock: clk}))
		lease, err := l.Acquire(context.Background())
		if err != nil {
			t.Fatalf("%s: Acquire = %v", tc.name, err)
		}
		if n := clk.started.Load(); n != 0 {
			t.Errorf("%s: Acquire started %d goroutines, want 0", tc.name, n)
		}
		if n := clk.armed.Load(); n != 1 {
			t.Errorf("%s: %d timers armed after Acquire, want 1", tc.name, n)
		}
		if err := l.Release(context.Background(), lease); err != nil {
			t.Fatalf("%s: Release = %v", tc.name, err)
		}
		if n := clk.armed.Load(); n != 0 {
			t.Errorf("%s: %d timers armed after Release, want 0", tc.name, n)
		}
	}
}

// TestValidityTimerFollowsExtend: with the real clock's timers, Done
// closes when the validity runs out, and not before the later end that an
// Extend gave it.
func TestValidityTimerFollowsExtend(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	b := extMust(NewBasic(rdb, "vt:extend", Options{TTL: time.Second}))
	ctx := context.Background()
	lease, err := b.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire = %v", err)
	}
	time.Sleep(500 * time.Millisecond) // real time: the clock under test is the real one
	if err := b.Extend(ctx, lease); err != nil {
		t.Fatalf("Extend = %v", err)
	}
	extended := time.Now() // the validity now ends about 1s from here
	select {
	case <-lease.Done():
		t.Fatalf("Done closed %v after an Extend that left about 1s", time.Since(extended))
	case <-time.After(time.Until(extended.Add(700 * time.Millisecond))):
	}
	if err := lease.Err(); err != nil {
		t.Fatalf("Err() = %v 0.7s after Extend, want nil", err)
	}
	select {
	case <-lease.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done not closed 10s after the validity ran out")
	}
	if err := lease.Err(); err == nil {
		t.Fatal("Err() = nil after Done closed")
	}
}

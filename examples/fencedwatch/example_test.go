package fencedwatch_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/examples/fencedwatch"
	"github.com/locksim/locksim/locks"
)

// ExampleNew takes the lock on an embedded Redis, holds it past its TTL
// (the watchdog renews it), and gives it back; the next holder's fencing
// token is higher. The lock's time is a manual clock that moves the
// server's TTLs with it, so the example waits for nothing.
func ExampleNew() {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	defer m.Close()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	defer rdb.Close()
	clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
	defer clk.Close()
	ctx := context.Background()
	l, err := fencedwatch.New(rdb, "jobs", locks.Options{TTL: time.Second, Clock: clk})
	if err != nil {
		panic(err)
	}
	lease, err := l.Acquire(ctx)
	if err != nil {
		panic(err)
	}
	if err := clk.Advance(1700 * time.Millisecond); err != nil { // past the TTL, renewed every TTL/3 on the way
		panic(err)
	}
	fmt.Println("fence", lease.Fence, "still held:", lease.Err() == nil, m.Exists("{jobs}:lock"))
	fmt.Println("release:", l.Release(ctx, lease))
	next, _ := l.Acquire(ctx)
	fmt.Println("next fence", next.Fence)
	_ = l.Release(ctx, next)
	// Output:
	// fence 1 still held: true true
	// release: <nil>
	// next fence 2
}

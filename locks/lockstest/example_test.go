package lockstest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// A ManualClock moves only when told, and moves miniredis's TTLs with it:
// a watchdog lock with a 100ms TTL is still held after a simulated second,
// because its renewals ran at every step; its release removes the key.
// No real time is spent waiting.
func ExampleManualClock() {
	m, err := miniredis.Run()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer m.Close()
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
	defer rdb.Close()

	clk := lockstest.NewManualClock(lockstest.Epoch, m.FastForward)
	defer clk.Stop() // ends the background work: the renewal loop may outlive the release briefly
	wd, err := locks.NewWatchdog(rdb, "job", locks.Options{TTL: 100 * time.Millisecond, Clock: clk})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	lease, err := wd.Acquire(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := clk.Advance(time.Second); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("after 1s: key held:", m.Exists("job"), "lease err:", lease.Err())
	if err := wd.Release(ctx, lease); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("released: key held:", m.Exists("job"))
	// Output:
	// after 1s: key held: true lease err: <nil>
	// released: key held: false
}

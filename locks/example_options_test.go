package locks_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// Options.Fencing gives the renewing patterns fencing tokens: a Watchdog
// keeps the lock alive while held, and each holding carries the next token
// of a never-expiring counter for a store to check.
func ExampleOptions_fencing() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: time.Second, Fencing: true}
	w, _ := locks.NewWatchdog(rdb, "ledger", opts)
	svc, _ := locks.NewService(rdb, "ledger", opts)

	l1, _ := w.Acquire(ctx)
	fmt.Println("watchdog:", l1.Key, "fence", l1.Fence)
	_ = w.Release(ctx, l1)

	outer, _ := svc.Acquire(ctx)
	inner, _ := svc.Acquire(ctx) // a re-entry keeps its holding's token
	fmt.Println("service: fence", outer.Fence, inner.Fence)
	_ = svc.Release(ctx, inner)
	_ = svc.Release(ctx, outer)
	fmt.Println("counter:", m.Exists(locks.FencedCounterKey("ledger")), "expires:", m.TTL(locks.FencedCounterKey("ledger")) != 0)
	// Output:
	// watchdog: {ledger}:lock fence 1
	// service: fence 2 2
	// counter: true expires: false
}

// ExtendTTL pushes a lease out to another TTL than the one it was granted
// with, owner-checked; a TTL that leaves no validity is refused.
func ExampleTTLExtender() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	b, _ := locks.NewBasic(rdb, "report", locks.Options{TTL: time.Second})
	lease, _ := b.Acquire(ctx)
	_ = b.ExtendTTL(ctx, lease, time.Minute) // a long job ahead
	fmt.Println("server TTL:", m.TTL("report"))
	fmt.Println("refused:", b.ExtendTTL(ctx, lease, time.Millisecond))
	_ = b.Release(ctx, lease)
	// Output:
	// server TTL: 1m0s
	// refused: extend "report": locks: ttl (1ms) must exceed its drift allowance (ttl × DriftFactor + 2ms = 2.01ms): the holder would get no validity
}

// A caller-chosen Token lets a restarted process take back and release the
// lock its earlier run held.
func ExampleOptions_token() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: time.Minute, Token: "worker-7"}
	before, _ := locks.NewBasic(rdb, "nightly", opts)
	_, _ = before.Acquire(ctx) // ... and the process dies holding it

	after, _ := locks.NewBasic(rdb, "nightly", opts) // the restarted process
	lease, err := after.Acquire(ctx)
	fmt.Println("taken back:", err == nil, lease.Token)
	fmt.Println("released:", after.Release(ctx, lease) == nil, m.Exists("nightly"))
	// Output:
	// taken back: true worker-7
	// released: true false
}

package locks_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

// TTL reads how long the server still keeps a held lock, owner-checked:
// once the lock is another client's, the answer is ErrNotHeld.
func ExampleTTLReader() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	b, _ := locks.NewBasic(rdb, "invoice", locks.Options{TTL: 30 * time.Second})
	lease, _ := b.Acquire(ctx)
	ttl, _ := b.TTL(ctx, lease)
	fmt.Println("server TTL:", ttl)

	m.Del("invoice") // lost behind the holder's back ...
	rival, _ := locks.NewBasic(rdb, "invoice", locks.Options{TTL: 30 * time.Second})
	_, _ = rival.Acquire(ctx) // ... and taken by another client
	_, err := b.TTL(ctx, lease)
	fmt.Println(errors.Is(err, locks.ErrNotHeld), errors.Is(lease.Err(), locks.ErrLockLost))
	// Output:
	// server TTL: 30s
	// true true
}

// A RetryStrategy decides the waits between attempts and when to give up;
// here at most three attempts, 5ms apart.
func ExampleRetryStrategy() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	holder, _ := locks.NewBasic(rdb, "batch", locks.Options{TTL: time.Minute})
	_, _ = holder.Acquire(ctx)

	metrics := &locks.Metrics{}
	waiter, _ := locks.NewBasic(rdb, "batch", locks.Options{TTL: time.Minute, Metrics: metrics,
		RetryStrategy: locks.LimitRetry(locks.ConstantBackoff(5*time.Millisecond), 3)})
	_, err := waiter.Acquire(ctx)
	fmt.Println(errors.Is(err, locks.ErrNotAcquired), "after", metrics.Snapshot().Attempts, "attempts")
	// Output:
	// true after 3 attempts
}

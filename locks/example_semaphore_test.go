package locks_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
)

func ExampleSemaphore_AcquireN() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: 1}}
	sem, _ := locks.NewSemaphore(rdb, "gpu", 4, opts)

	job, _ := sem.AcquireN(ctx, 3) // three permits in one atomic step
	free, _ := sem.Available(ctx)
	fmt.Println("lease of", job.Count, "permits,", free, "free")
	_, err := sem.AcquireN(ctx, 2) // all or none: it takes no permit
	fmt.Println("two more:", err)
	_ = sem.Release(ctx, job) // all three back at once
	free, _ = sem.Available(ctx)
	fmt.Println("after the release:", free, "free")
	// Output:
	// lease of 3 permits, 1 free
	// two more: acquire "{gpu}:permits": locks: lock not acquired: fewer than 2 of 4 permits free
	// after the release: 4 free
}

func ExampleSemaphore_Resize() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: 1}}
	sem, _ := locks.NewSemaphore(rdb, "gpu", 2, opts)
	_, _ = sem.Acquire(ctx) // the first acquisition stores N = 2

	// A client built with another N is refused, never given a permit.
	other, _ := locks.NewSemaphore(rdb, "gpu", 3, opts)
	_, err := other.Acquire(ctx)
	fmt.Println("N=3 beside N=2:", errors.Is(err, locks.ErrPermitsMismatch), errors.Is(err, locks.ErrPermanent))

	// Resize is the one way to change N: from this client's N to the new one.
	fmt.Println("resize to 3:", sem.Resize(ctx, 3))
	_, err = other.Acquire(ctx)
	fmt.Println("N=3 after the resize:", err)
	// Output:
	// N=3 beside N=2: true true
	// resize to 3: <nil>
	// N=3 after the resize: <nil>
}

package locks_test

import (
	"context"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// extrasRedis starts an embedded Redis and a client for it.
func extrasRedis() (*miniredis.Miniredis, *redis.Client) {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	return m, redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
}

func ExampleNewFair() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: -1, Delay: time.Millisecond}}
	holder, _ := locks.NewFair(rdb, "jobs", opts)
	lease, _ := holder.Acquire(ctx)

	// Two waiters queue behind the holder, in this order.
	granted := make(chan string, 2)
	queued := func() int {
		info, _ := locks.Inspect(ctx, rdb, "jobs", locks.KindFair)
		return info.Queue
	}
	for i, name := range []string{"first", "second"} {
		w, _ := locks.NewFair(rdb, "jobs", opts)
		go func() {
			l, err := w.Acquire(ctx)
			if err != nil {
				granted <- err.Error()
				return
			}
			granted <- name
			_ = w.Release(ctx, l)
		}()
		for queued() < i+1 {
			time.Sleep(time.Millisecond) // until this waiter has queued
		}
	}
	fmt.Println("waiting:", queued())
	_ = holder.Release(ctx, lease)
	fmt.Println(<-granted, "then", <-granted)
	// Output:
	// waiting: 2
	// first then second
}

func ExampleNewRWLock() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	rw, _ := locks.NewRWLock(rdb, "catalog", locks.Options{TTL: 10 * time.Second})

	r1, _ := rw.RLock(ctx)
	r2, err := rw.RLock(ctx)
	fmt.Println("two readers at once:", err == nil)
	_, err = rw.Lock(ctx)
	fmt.Println("writer while they read:", err)
	_ = rw.RUnlock(ctx, r2)
	fmt.Println("second reader releases again:", rw.RUnlock(ctx, r2))
	_, err = rw.Lock(ctx)
	fmt.Println("writer while the first still reads:", err != nil)
	_ = rw.RUnlock(ctx, r1)
	w, err := rw.Lock(ctx)
	fmt.Println("writer once they left:", err == nil)
	_ = rw.Unlock(ctx, w)
	// Output:
	// two readers at once: true
	// writer while they read: acquire "{catalog}:writer": locks: lock not acquired
	// second reader releases again: release "{catalog}:readers": locks: lock not held: lease was already released
	// writer while the first still reads: true
	// writer once they left: true
}

func ExampleNewSemaphore() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: 10 * time.Second}
	sem, _ := locks.NewSemaphore(rdb, "gpu", 2, opts)

	a, _ := sem.Acquire(ctx)
	_, _ = sem.Acquire(ctx)
	_, err := sem.Acquire(ctx)
	fmt.Println("third holder:", err)
	_ = sem.Release(ctx, a)
	_, err = sem.Acquire(ctx)
	fmt.Println("after a release:", err)

	// A holder that crashes gives its permit back when its TTL runs out.
	m.FastForward(opts.TTL)
	info, _ := locks.Inspect(ctx, rdb, "gpu", locks.KindSemaphore)
	fmt.Println("holders after the TTL:", len(info.Holders))
	// Output:
	// third holder: acquire "{gpu}:permits": locks: lock not acquired: all 2 permits taken
	// after a release: <nil>
	// holders after the TTL: 0
}

func ExampleInspect() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	re, _ := locks.NewReentrant(rdb, "orders:7", locks.Options{TTL: 5 * time.Second, Owner: "worker-1"})
	_, _ = re.Acquire(ctx)
	_, _ = re.Acquire(ctx) // re-entry

	info, _ := locks.Inspect(ctx, rdb, "orders:7", locks.KindReentrant)
	h := info.Holders[0]
	fmt.Printf("holder %s, count %d, ttl %v, queue %d\n", h.Token, h.Count, h.TTL, info.Queue)
	// Output:
	// holder worker-1, count 2, ttl 5s, queue 0
}

// A writer re-enters its holding, then downgrades to a reader with no gap
// in which another writer could take the lock.
func ExampleRWLock_Downgrade() {
	m, rdb := extrasRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	o := locks.Options{TTL: 10 * time.Second, Retry: locks.Retry{Attempts: 1}}
	rw, _ := locks.NewRWLock(rdb, "catalog", o)
	other, _ := locks.NewRWLock(rdb, "catalog", o)

	w, _ := rw.Lock(ctx)
	again, err := rw.Reenter(ctx, w)
	fmt.Println("re-entered:", err == nil, "count", again.Count)
	_ = rw.Unlock(ctx, again)
	r, err := rw.Downgrade(ctx, w)
	fmt.Println("downgraded to a reader:", err == nil, r.Shared)
	_, err = other.Lock(ctx)
	fmt.Println("another writer meanwhile:", err != nil)
	r2, err := other.RLock(ctx)
	fmt.Println("another reader beside it:", err == nil)
	_ = other.RUnlock(ctx, r2)
	_ = rw.RUnlock(ctx, r)
	// Output:
	// re-entered: true count 2
	// downgraded to a reader: true true
	// another writer meanwhile: true
	// another reader beside it: true
}

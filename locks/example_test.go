package locks_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// exampleRedis starts an embedded Redis and a client for it. A real
// deployment passes its own *redis.Client (or *redis.ClusterClient).
func exampleRedis() (*miniredis.Miniredis, *redis.Client) {
	m, err := miniredis.Run()
	if err != nil {
		panic(err)
	}
	// One dial attempt and no command retries: an unreachable node fails
	// at once instead of after go-redis's default backoff.
	return m, redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
}

func ExampleNewBasic() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: 10 * time.Second}
	a, _ := locks.NewBasic(rdb, "orders:42", opts)
	b, _ := locks.NewBasic(rdb, "orders:42", opts)

	lease, err := a.Acquire(ctx)
	fmt.Println("first client acquired:", err == nil)
	_, err = b.Acquire(ctx)
	fmt.Println("second client:", err)
	fmt.Println("released:", a.Release(ctx, lease))
	_, err = b.Acquire(ctx)
	fmt.Println("second client after release:", err)
	// Output:
	// first client acquired: true
	// second client: acquire "orders:42": locks: lock not acquired
	// released: <nil>
	// second client after release: <nil>
}

func ExampleNewReentrant() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	worker, _ := locks.NewReentrant(rdb, "cart:7", locks.Options{TTL: 10 * time.Second, Owner: "worker-1"})
	other, _ := locks.NewReentrant(rdb, "cart:7", locks.Options{TTL: 10 * time.Second, Owner: "worker-2"})

	outer, _ := worker.Acquire(ctx)
	fmt.Println("acquired, count", outer.Count)
	inner, _ := worker.Acquire(ctx) // the same owner, e.g. a nested call
	fmt.Println("re-entered, count", inner.Count)
	_, err := other.Acquire(ctx)
	fmt.Println("worker-2:", errors.Is(err, locks.ErrNotAcquired))
	_ = worker.Release(ctx, inner)
	_, err = other.Acquire(ctx)
	fmt.Println("worker-2 after one release:", errors.Is(err, locks.ErrNotAcquired))
	_ = worker.Release(ctx, outer)
	_, err = other.Acquire(ctx)
	fmt.Println("worker-2 after the last release:", err)
	// Output:
	// acquired, count 1
	// re-entered, count 2
	// worker-2: true
	// worker-2 after one release: true
	// worker-2 after the last release: <nil>
}

// The watchdog keeps a one-second lock for as long as it is held, and tells
// the holder when it is lost. Time here is manual (lockstest.ManualClock
// moving the server's TTLs with it), so the example runs in no time.
func ExampleNewWatchdog() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	clk := lockstest.NewManualClock(lockstest.Epoch, m.FastForward)
	opts := locks.Options{TTL: time.Second, Clock: clk} // renewed every TTL/3
	w, _ := locks.NewWatchdog(rdb, "report", opts)
	other, _ := locks.NewWatchdog(rdb, "report", opts)

	lease, _ := w.Acquire(ctx)
	_ = clk.Advance(5 * time.Second)
	_, err := other.Acquire(ctx)
	fmt.Println("after 5 TTLs: holder", lease.Err(), "- other client", err)

	m.Del("report") // the key vanishes behind the holder's back
	_ = clk.Advance(time.Second)
	<-lease.Done()
	fmt.Println("holder told:", lease.Err())
	fmt.Println("release:", errors.Is(w.Release(ctx, lease), locks.ErrNotHeld))
	// Output:
	// after 5 TTLs: holder <nil> - other client acquire "report": locks: lock not acquired
	// holder told: locks: lock lost: renewal refused
	// release: true
}

func ExampleNewRedlock() {
	var nodes []locks.Redis
	var servers []*miniredis.Miniredis
	for range 5 {
		m, rdb := exampleRedis()
		defer m.Close()
		defer rdb.Close()
		servers, nodes = append(servers, m), append(nodes, rdb)
	}
	ctx := context.Background()
	ttl := 10 * time.Second
	rl, _ := locks.NewRedlock(nodes, "invoice:9", locks.Options{TTL: ttl})
	fmt.Println("quorum:", rl.Quorum())

	servers[3].Close()
	servers[4].Close()
	lease, err := rl.Acquire(ctx)
	fmt.Println("2 of 5 nodes down:", err, "- validity in (0, TTL]:", lease.Validity() > 0 && lease.Validity() <= ttl)
	var ne *locks.NodeError
	fmt.Println("release reports the down nodes:", errors.As(rl.Release(ctx, lease), &ne))

	servers[2].Close()
	_, err = rl.Acquire(ctx)
	var qe *locks.QuorumError
	errors.As(err, &qe)
	fmt.Printf("3 of 5 nodes down: ErrUnavailable %v, ErrQuorum %v, %d locked of %d needed, %d node errors\n",
		errors.Is(err, locks.ErrUnavailable), errors.Is(err, locks.ErrQuorum), qe.Locked, qe.Needed, len(qe.Nodes))
	// Output:
	// quorum: 3
	// 2 of 5 nodes down: <nil> - validity in (0, TTL]: true
	// release reports the down nodes: true
	// 3 of 5 nodes down: ErrUnavailable true, ErrQuorum false, 2 locked of 3 needed, 3 node errors
}

func ExampleNewService() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	var metrics locks.Metrics
	svc, _ := locks.NewService(rdb, "billing", locks.Options{TTL: 10 * time.Second, Owner: "worker-1", Metrics: &metrics})
	// Service retries until the context is done unless told otherwise.
	other, _ := locks.NewService(rdb, "billing", locks.Options{TTL: 10 * time.Second, Owner: "worker-2"})

	outer, _ := svc.Acquire(ctx)
	inner, _ := svc.Acquire(ctx)
	fmt.Println("counts:", outer.Count, inner.Count)

	wait, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err := other.Acquire(wait)
	fmt.Println("worker-2 gave up:", errors.Is(err, locks.ErrNotAcquired), errors.Is(err, context.DeadlineExceeded))

	_ = svc.Release(ctx, inner)
	_ = svc.Release(ctx, outer)
	s := metrics.Snapshot()
	fmt.Printf("acquired %d, released %d, failed %d\n", s.Acquired, s.Released, s.Failed)
	// Output:
	// counts: 1 2
	// worker-2 gave up: true true
	// acquired 2, released 2, failed 0
}

func ExampleNewFenced() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: time.Second}
	a, _ := locks.NewFenced(rdb, "ledger", opts)
	b, _ := locks.NewFenced(rdb, "ledger", opts)

	l1, _ := a.Acquire(ctx)
	fmt.Println("a: fence", l1.Fence)
	_ = a.Release(ctx, l1)
	l2, _ := b.Acquire(ctx)
	fmt.Println("b: fence", l2.Fence)

	m.FastForward(2 * time.Second) // b stalls past its TTL
	l3, _ := a.Acquire(ctx)
	fmt.Println("a: fence", l3.Fence, "- a store that checks fences now rejects b's", l2.Fence)
	fmt.Println("counter expires:", m.TTL(locks.FencedCounterKey("ledger")) != 0)
	// Output:
	// a: fence 1
	// b: fence 2
	// a: fence 3 - a store that checks fences now rejects b's 2
	// counter expires: false
}

// Every pattern reports a taken lock as ErrNotAcquired (Redlock: ErrQuorum),
// wrapped with the key; test it with errors.Is.
func Example_errNotAcquired() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	holder, _ := locks.NewBasic(rdb, "nightly-export", locks.Options{TTL: time.Minute})
	if _, err := holder.Acquire(ctx); err != nil {
		fmt.Println("unexpected:", err)
		return
	}

	l, _ := locks.NewBasic(rdb, "nightly-export", locks.Options{TTL: time.Minute})
	_, err := l.Acquire(ctx)
	switch {
	case errors.Is(err, locks.ErrNotAcquired):
		fmt.Println("another instance is exporting; skipping")
	case err != nil:
		fmt.Println("redis trouble:", err)
	}
	var ke *locks.KeyError
	if errors.As(err, &ke) {
		fmt.Printf("op %s, key %s\n", ke.Op, ke.Key)
	}
	// Output:
	// another instance is exporting; skipping
	// op acquire, key nightly-export
}

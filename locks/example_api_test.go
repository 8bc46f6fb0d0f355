package locks_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

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

// A MultiLock takes several keys at once or none of them: two transfers
// that need the same two accounts in opposite orders cannot deadlock.
func ExampleMultiLock() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	o := locks.Options{TTL: 10 * time.Second}
	ab, _ := locks.NewMultiLock(rdb, []string{"{bank}:alice", "{bank}:bob"}, o)
	ba, _ := locks.NewMultiLock(rdb, []string{"{bank}:bob", "{bank}:alice"}, o)

	lease, _ := ab.Acquire(ctx)
	_, err := ba.Acquire(ctx)
	fmt.Println("second transfer:", err)
	fmt.Println("first holds both:", m.Exists("{bank}:alice"), m.Exists("{bank}:bob"))
	_ = ab.Release(ctx, lease)
	lease, err = ba.Acquire(ctx)
	fmt.Println("then the second:", err == nil, len(ba.Keys()))
	_ = ba.Release(ctx, lease)

	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: []string{m.Addr()}, ContextTimeoutEnabled: true})
	defer cluster.Close()
	_, err = locks.NewMultiLock(cluster, []string{"alice", "bob"}, o)
	fmt.Println(err)
	// Output:
	// second transfer: acquire "{bank}:bob": locks: lock not acquired: "{bank}:bob" is held
	// first holds both: true true
	// then the second: true 2
	// locks: keys[1] ("bob") is in hash slot 8955, not 749 as keys[0] "alice": on Redis Cluster the keys of a MultiLock must share a slot (give them one hash tag, {tag}:name)
}

// A holder stores who it is with the lock for others to read, then hands
// the holding to another process, which adopts it by its token.
func ExampleBasic_HandOff() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	o := locks.Options{TTL: 30 * time.Second, Metadata: "worker-a"}
	a, _ := locks.NewBasic(rdb, "invoice", o)
	b, _ := locks.NewBasic(rdb, "invoice", locks.Options{TTL: 30 * time.Second}) // the other process

	lease, _ := a.Acquire(ctx)
	info, _ := locks.Inspect(ctx, rdb, "invoice", locks.KindBasic)
	fmt.Println("held by:", info.Holders[0].Metadata)
	token, _ := a.HandOff(lease)
	fmt.Println("giver's lease:", lease.Err())
	adopted, err := b.Adopt(ctx, token)
	fmt.Println("adopted:", err, adopted.Metadata)
	fmt.Println("released by the taker:", b.Release(ctx, adopted))
	// Output:
	// held by: worker-a
	// giver's lease: locks: lease released: handed off
	// adopted: <nil> worker-a
	// released by the taker: <nil>
}

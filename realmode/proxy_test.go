package realmode

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/fault"
	"github.com/redis/go-redis/v9"
)

// TestLinkPartitionAndSlow: through the proxy, a PING answers; a
// partition makes it time out; after the heal it answers again; a slow
// reply direction delays it by at least the extra latency.
func TestLinkPartitionAndSlow(t *testing.T) {
	needRedis(t)
	s := startT(t, ServerConfig{Name: "n1"})
	l, err := NewLink(s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rdb := redis.NewClient(&redis.Options{Addr: l.Addr(), DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
	defer rdb.Close()
	ping := func(limit time.Duration) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(context.Background(), limit)
		defer cancel()
		start := time.Now()
		err := rdb.Ping(ctx).Err()
		return time.Since(start), err
	}
	if _, err := ping(2 * time.Second); err != nil {
		t.Fatalf("through the proxy: %v", err)
	}
	l.Partition(true)
	if _, err := ping(200 * time.Millisecond); !unknownOutcome(err) {
		t.Fatalf("during a partition: %v, want a timeout", err)
	}
	l.Partition(false)
	var ok bool
	for range 3 { // the first call may meet the connection the partition broke
		if _, err := ping(2 * time.Second); err == nil {
			ok = true
			break
		}
	}
	if !ok {
		t.Fatal("after the heal, PING still fails")
	}
	l.Slow(fault.Reply, 150*time.Millisecond)
	if d, err := ping(2 * time.Second); err != nil || d < 150*time.Millisecond {
		t.Fatalf("slow replies: %v after %v, want at least 150ms", err, d)
	}
	l.Slow(fault.Reply, -150*time.Millisecond)
}

// TestLinkRepoint: after Repoint, the client's open connection breaks and
// its next call reaches the new target.
func TestLinkRepoint(t *testing.T) {
	needRedis(t)
	a := startT(t, ServerConfig{Name: "n1"})
	b := startT(t, ServerConfig{Name: "n2"})
	l, err := NewLink(a.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	rdb := redis.NewClient(&redis.Options{Addr: l.Addr(), DialerRetries: 1, MaxRetries: -1, PoolSize: 1})
	defer rdb.Close()
	ctx := context.Background()
	if err := rdb.Set(ctx, "where", "a", 0).Err(); err != nil {
		t.Fatal(err)
	}
	l.Repoint(b.Addr())
	var got string
	for range 3 { // the first call may meet the connection Repoint closed
		if got, err = rdb.Get(ctx, "where").Result(); err == nil || err == redis.Nil {
			break
		}
	}
	if err != redis.Nil {
		t.Fatalf("after Repoint: GET where = %q, %v; want the new target's missing key", got, err)
	}
}

package lockstest

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// RedisServers is a Backend of real redis-server processes on loopback
// (started with package redistest). Time is real: lockers run on
// clock.Real and Advance sleeps.
//
// A node goes down by killing its process, so its clients are refused at
// once; Up starts a fresh, empty server in its place, on a new port (only
// connections opened after Up reach it).
type RedisServers struct {
	servers []*redistest.Server
	down    []bool
	beat    *heartbeat // the test process's stalls (Staller)
}

var (
	_ Backend = (*RedisServers)(nil)
	_ Staller = (*RedisServers)(nil)
)

// StartRedisServers starts n redis-servers for t (redistest.Require: it
// skips t without redis-server, or fails it under CI=true) and stops them,
// and any started by Up, when t ends.
func StartRedisServers(t testing.TB, n int) *RedisServers {
	t.Helper()
	b := &RedisServers{servers: redistest.Require(t, n), down: make([]bool, n), beat: startHeartbeat()}
	t.Cleanup(func() { b.beat.close(); redistest.Stop(b.servers) })
	return b
}

// Stall is the longest time since the last Reset that this process did
// not run (a heartbeat's longest gap): on a loaded machine a property's
// sleep can overrun the lease it was sized against.
func (b *RedisServers) Stall() time.Duration { return b.beat.longest() }

// Nodes is the number of servers.
func (b *RedisServers) Nodes() int { return len(b.servers) }

// Addrs returns the servers' current addresses.
func (b *RedisServers) Addrs() []string { return redistest.Addrs(b.servers) }

// Connect opens fresh connections to every server.
func (b *RedisServers) Connect(t testing.TB) []locks.Redis {
	out := make([]locks.Redis, len(b.servers))
	for i, s := range b.servers {
		out[i] = dial(t, s.Addr)
	}
	return out
}

// Admin returns a connection to server i.
func (b *RedisServers) Admin(t testing.TB, node int) *redis.Client {
	return dial(t, b.servers[node].Addr)
}

// Clock is clock.Real.
func (b *RedisServers) Clock() clock.Clock { return clock.Real{} }

// TTL is 1s: a few round trips and a watchdog's scheduling delay under
// -race on a machine running other test packages at once stay far below
// it (at 400ms a renewal goroutine starved for a whole TTL on a loaded
// 2-core machine), and waiting it out a few times costs seconds.
func (b *RedisServers) TTL() time.Duration { return time.Second }

// Advance sleeps for d.
func (b *RedisServers) Advance(t testing.TB, d time.Duration) { time.Sleep(d) }

// Down kills server i.
func (b *RedisServers) Down(t testing.TB, node int) {
	b.servers[node].Stop()
	b.down[node] = true
}

// Up starts a fresh server in place of server i, if it is down.
func (b *RedisServers) Up(t testing.TB, node int) {
	t.Helper()
	if !b.down[node] {
		return
	}
	ss, err := redistest.Start(1)
	if err != nil {
		t.Fatalf("restart node %d: %v", node, err)
	}
	b.servers[node] = ss[0]
	b.down[node] = false
}

// Reset runs FLUSHALL on every server that is up.
func (b *RedisServers) Reset(t testing.TB) {
	t.Helper()
	b.beat.reset()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range b.servers {
		if b.down[i] {
			continue
		}
		if err := b.Admin(t, i).FlushAll(ctx).Err(); err != nil {
			t.Fatalf("FLUSHALL on node %d: %v", i, err)
		}
	}
}

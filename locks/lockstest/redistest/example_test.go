package redistest_test

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// Start runs real redis-servers (here two) on free loopback ports, each
// with its own empty data set and no persistence, once each answers PING;
// Stop kills them. It needs redis-server on PATH (Require skips a test
// instead when it is missing).
func ExampleStart() {
	ss, err := redistest.Start(2)
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	a := redis.NewClient(&redis.Options{Addr: ss[0].Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	b := redis.NewClient(&redis.Options{Addr: ss[1].Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	fmt.Println(a.Ping(ctx).Val(), b.Ping(ctx).Val())
	a.Set(ctx, "k", "v", 0)
	fmt.Println("k on a:", a.Exists(ctx, "k").Val(), "on b:", b.Exists(ctx, "k").Val())
	a.Close()
	b.Close()
	redistest.Stop(ss)
	_, err = net.DialTimeout("tcp", ss[0].Addr, time.Second)
	fmt.Println("after Stop, refused:", err != nil)
	// Output:
	// PONG PONG
	// k on a: 1 on b: 0
	// after Stop, refused: true
}

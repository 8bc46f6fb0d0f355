package redisserver_test

import (
	"context"
	"fmt"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/redisserver"
)

// Start runs a real redis-server on a free loopback port; with
// appendfsync always it keeps every acknowledged write across a crash
// (SIGKILL) and a restart on the same port. It needs redis-server on PATH.
func ExampleStart() {
	ctx := context.Background()
	s, err := redisserver.Start(ctx, redisserver.Config{Name: "n1", Persist: redisserver.AOFAlways})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Stop()
	c := redis.NewClient(&redis.Options{Addr: s.Addr(), DialerRetries: 1, MaxRetries: -1})
	defer c.Close()
	fmt.Println(c.Set(ctx, "k", "v", 0).Val())
	port := s.Port()
	s.Crash()
	fmt.Println("alive after Crash:", s.Alive())
	if err := s.Restart(true); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("same port:", s.Port() == port, "k kept:", c.Get(ctx, "k").Val())
	// Output:
	// OK
	// alive after Crash: false
	// same port: true k kept: v
}

package network_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// The real basic lock runs in a simulated client over a simulated link
// with a fixed 1ms one-way latency: its grant arrives after one round trip
// of virtual time. With the link partitioned, the same call times out at
// the network's timeout instead.
func ExampleNet_NewRedisClient() {
	s := sched.New()
	net := network.New(s, 1, network.Latency{Base: time.Millisecond})
	n1, err := node.New(node.Config{Name: "n1"}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer n1.Close()
	e := net.AddEndpoint(network.NodeEndpoint(n1))
	c1 := s.NewProc("c1", vclock.New(0))
	c := net.AddClient(c1)

	lock, err := locks.NewBasic(net.NewRedisClient(c, e), "lock", locks.Options{
		TTL: 100 * time.Millisecond, Clock: c1, Rand: locks.NewSeededRand(1, "c1"),
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	c1.Spawn("main", func() {
		ctx := context.Background()
		lease, err := lock.Acquire(ctx)
		fmt.Printf("t=%v acquired: %v\n", time.Duration(s.Now()), err == nil)
		if err == nil {
			_ = lock.Release(ctx, lease)
		}
		net.Link(c, e).Partition(true)
		_, err = lock.Acquire(ctx)
		fmt.Printf("t=%v partitioned: %v\n", time.Duration(s.Now()), err)
	})
	if err := s.RunUntil(time.Minute.Nanoseconds()); err != nil {
		fmt.Println(err)
	}
	if err := s.Shutdown(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=6ms acquired: true
	// t=3.01s partitioned: acquire "lock": read c1→n1: i/o timeout
}

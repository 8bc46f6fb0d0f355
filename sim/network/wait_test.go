package network_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// waitRun sends SET then WAIT 1 timeout from one client over a 1ms link to
// a node whose replica lags 20ms; between the two, between(n) may fault
// the node. It returns WAIT's count, when the caller resumed, and WAIT's error.
func waitRun(t *testing.T, timeout time.Duration, between func(*node.Node)) (n int64, at time.Duration, err error) {
	t.Helper()
	s := sched.New()
	net := network.New(s, 1, network.Latency{Base: time.Millisecond})
	n1, nerr := node.New(node.Config{Name: "n1", ReplicaDelay: 20 * time.Millisecond, Replicas: 2}, s)
	if nerr != nil {
		t.Fatal(nerr)
	}
	defer n1.Close()
	e := net.AddEndpoint(network.NodeEndpoint(n1))
	c1 := s.NewProc("c1", vclock.New(0))
	r := net.NewRedisClient(net.AddClient(c1), e)
	c1.Spawn("main", func() {
		ctx := context.Background()
		if err := r.SetNX(ctx, "k", "v", time.Second).Err(); err != nil {
			t.Error(err)
		}
		between(n1)
		n, err = r.Wait(ctx, 1, timeout).Result()
		at = time.Duration(s.Now())
	})
	if err := s.RunUntil(time.Minute.Nanoseconds()); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(); err != nil {
		t.Fatal(err)
	}
	return n, at, err
}

// WAIT parks on the node until the replica has the connection's write
// (20ms after it), or answers 0 at its timeout; either reply takes the
// link's 1ms back. After a failover between the write and the WAIT, the
// connection is gone: WAIT fails with a reset.
func TestWaitOverTheNetwork(t *testing.T) {
	none := func(*node.Node) {}
	if n, at, err := waitRun(t, time.Second, none); err != nil || n != 1 || at != 22*time.Millisecond {
		t.Errorf("WAIT 1 1000 = %d, %v at %v; want 1 at 22ms (SET applied at 1ms, on the replica at 21ms, reply 1ms)", n, err, at)
	}
	if n, at, err := waitRun(t, 5*time.Millisecond, none); err != nil || n != 0 || at != 9*time.Millisecond {
		t.Errorf("WAIT 1 5 = %d, %v at %v; want 0 at 9ms (sent at 2ms, there at 3ms, 5ms, 1ms back)", n, err, at)
	}
	failover := func(n *node.Node) { _, _ = n.Failover() }
	var reset *network.ResetError
	if n, _, err := waitRun(t, time.Second, failover); !errors.As(err, &reset) {
		t.Errorf("WAIT after a failover = %d, %v; want a ResetError", n, err)
	}
}

package node

import (
	"testing"
	"time"

	"github.com/locksim/locksim/sim/sched"
)

// A node with two replicas fails over twice: each promotion loses what
// the promoted replica had not received, the second replica follows the
// new primary, and a third failover has no replica left.
func TestFailoverChain(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 100 * time.Millisecond, Replicas: 2})
	exec(n, "SET", "a", "1")
	at(t, s, 150) // both replicas have a
	exec(n, "SET", "b", "1")
	if lost, err := n.Failover(); err != nil || lost != 1 {
		t.Fatalf("first failover = %d, %v, want 1 write lost", lost, err)
	}
	want(t, "a after the first failover", exec(n, "GET", "a"), Bulk("1"))
	want(t, "b after the first failover", exec(n, "GET", "b"), Nil())
	if n.Replicas() != 1 {
		t.Fatalf("Replicas() = %d after one failover, want 1", n.Replicas())
	}
	exec(n, "SET", "c", "1") // shipped to the remaining replica
	at(t, s, 300)
	exec(n, "SET", "d", "1")
	if lost, err := n.Failover(); err != nil || lost != 1 {
		t.Fatalf("second failover = %d, %v, want 1 write lost", lost, err)
	}
	want(t, "a after the second failover", exec(n, "GET", "a"), Bulk("1"))
	want(t, "c after the second failover", exec(n, "GET", "c"), Bulk("1"))
	want(t, "d after the second failover", exec(n, "GET", "d"), Nil())
	if _, err := n.Failover(); err == nil {
		t.Error("a third failover succeeded, want no replica left")
	}
}

// The failover promotes the replica with the fewest writes in flight; the
// other resynchronises to it, dropping what the old primary had sent it.
func TestFailoverPromotesTheMostUpToDate(t *testing.T) {
	s := sched.New()
	lags := []time.Duration{100 * time.Millisecond, 10 * time.Millisecond}
	i := 0
	n := newNode(t, s, Config{Replicas: 2, ReplicaLag: func() time.Duration { d := lags[i%2]; i++; return d }})
	exec(n, "SET", "a", "1") // replica 1 at 100ms, replica 2 at 10ms
	at(t, s, 50)
	if lost, err := n.Failover(); err != nil || lost != 0 {
		t.Fatalf("failover = %d, %v, want the replica that has a (0 lost)", lost, err)
	}
	want(t, "a on the promoted replica", exec(n, "GET", "a"), Bulk("1"))
	at(t, s, 200) // the old primary's write to the other replica must not land after its resync
	if lost, err := n.Failover(); err != nil || lost != 0 {
		t.Fatalf("second failover = %d, %v, want 0 lost", lost, err)
	}
	want(t, "a on the resynchronised replica", exec(n, "GET", "a"), Bulk("1"))
}

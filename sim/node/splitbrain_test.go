package node

import (
	"testing"
	"time"

	"github.com/locksim/locksim/sim/sched"
)

// Under a split brain both primaries accept writes: the promoted replica
// lacks what it had not received, the old primary keeps everything it
// had and takes its own side's writes, replicated nowhere.
func TestSplitBrainServesBothSides(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 100 * time.Millisecond})
	exec(n, "SET", "a", "1")
	at(t, s, 150)
	exec(n, "SET", "b", "1") // not on the replica yet
	sp, lost, err := n.SplitBrain()
	if err != nil || lost != 1 {
		t.Fatalf("SplitBrain() = %d, %v, want 1 write lost to the new primary", lost, err)
	}
	old := sp.Old
	want(t, "b on the new primary", exec(n, "GET", "b"), Nil())
	want(t, "b on the old primary", exec(old, "GET", "b"), Bulk("1"))
	want(t, "SET NX lock on the new primary", exec(n, "SET", "lock", "c2", "NX", "PX", "1000"), Status("OK"))
	want(t, "SET NX lock on the old primary", exec(old, "SET", "lock", "c1", "NX", "PX", "1000"), Status("OK"))
	want(t, "INCR fence on the new primary", exec(n, "INCR", "fence"), Int(1))
	want(t, "INCR fence on the old primary", exec(old, "INCR", "fence"), Int(1))
	at(t, s, 400)
	want(t, "lock on the new primary after the old side's write", exec(n, "GET", "lock"), Bulk("c2"))
}

// Rejoin makes the old primary a replica of the new one: a full resync
// that discards every key its side wrote or kept, after which it follows
// the new primary's writes and can be promoted by a later failover.
func TestRejoinDiscardsTheOldSidesWrites(t *testing.T) {
	s := sched.New()
	n := newNode(t, s, Config{ReplicaDelay: 10 * time.Millisecond})
	exec(n, "SET", "a", "1")
	at(t, s, 50)
	sp, _, err := n.SplitBrain()
	if err != nil {
		t.Fatal(err)
	}
	exec(sp.Old, "SET", "lock", "c1")
	exec(sp.Old, "SET", "a", "2")
	exec(n, "SET", "x", "1")
	discarded, err := n.Rejoin(sp)
	if err != nil || discarded != 3 { // lock and a written on the old side, x absent from it
		t.Fatalf("Rejoin() = %d, %v, want 3 keys differing", discarded, err)
	}
	if sp.Old.Up() {
		t.Error("the old primary still serves clients after rejoining as a replica")
	}
	if n.Replicas() != 1 {
		t.Fatalf("Replicas() = %d after the rejoin, want the old primary as one", n.Replicas())
	}
	exec(n, "SET", "y", "1")
	at(t, s, 200)
	if lost, err := n.Failover(); err != nil || lost != 0 {
		t.Fatalf("failover to the rejoined primary = %d, %v", lost, err)
	}
	want(t, "a on the rejoined old primary", exec(n, "GET", "a"), Bulk("1"))
	want(t, "lock on the rejoined old primary", exec(n, "GET", "lock"), Nil())
	want(t, "x on the rejoined old primary", exec(n, "GET", "x"), Bulk("1"))
	want(t, "y on the rejoined old primary", exec(n, "GET", "y"), Bulk("1"))
}

func TestSplitBrainNeedsAReplica(t *testing.T) {
	n := newNode(t, sched.New(), Config{})
	if _, _, err := n.SplitBrain(); err == nil {
		t.Error("SplitBrain() without a replica succeeded")
	}
}

package model

import (
	"fmt"
	"time"
)

// Quorum is the reference model of Redlock: N independent reference Locks
// (each with its own time) and the majority rule. An owner holds the quorum
// lock while it holds a majority (N/2+1) of the nodes. It promises:
//
//   - an acquisition is granted only when a majority of nodes granted it;
//     otherwise it releases every node it took, so a failed attempt leaves
//     nothing behind;
//   - at most one owner holds a majority at a time, as long as every node
//     keeps its data (a node restarted without persistence, or one whose
//     clock jumps, breaks this; the model shows how);
//   - release frees the lock on every reachable node that the owner holds.
//
// Nodes that are down refuse everything. Quorum ignores the validity
// arithmetic (elapsed time and drift) because in a reference model requests
// take no time; a test that moves time between the requests of one
// acquisition should drive the nodes itself.
type Quorum struct {
	nodes []*Lock
	down  []bool
}

// NewQuorum returns a quorum of n free nodes (n odd, at least 1), each a
// non-reentrant, unfenced Lock with the given TTL.
func NewQuorum(n int, ttl time.Duration) (*Quorum, error) {
	if n < 1 || n%2 == 0 {
		return nil, fmt.Errorf("model: NewQuorum: node count %d must be odd and at least 1", n)
	}
	q := &Quorum{nodes: make([]*Lock, n), down: make([]bool, n)}
	for i := range q.nodes {
		l, err := NewLock(LockSpec{TTL: ttl})
		if err != nil {
			return nil, err
		}
		q.nodes[i] = l
	}
	return q, nil
}

// Size is the number of nodes.
func (q *Quorum) Size() int { return len(q.nodes) }

// Majority is how many nodes must grant the lock.
func (q *Quorum) Majority() int { return len(q.nodes)/2 + 1 }

// Node returns node i, to advance its clock alone or inspect it.
func (q *Quorum) Node(i int) *Lock { return q.nodes[i] }

// Down takes node i down: it refuses every request until Up or Restart.
// Its clock keeps running, so grants on it still expire.
func (q *Quorum) Down(i int) { q.down[i] = true }

// Up brings node i back with its data.
func (q *Quorum) Up(i int) { q.down[i] = false }

// Restart restarts node i, keeping its data only if persist.
func (q *Quorum) Restart(i int, persist bool) {
	q.nodes[i].Restart(persist)
	q.down[i] = false
}

// Advance moves every node's clock forward by d.
func (q *Quorum) Advance(d time.Duration) {
	for _, n := range q.nodes {
		n.Advance(d)
	}
}

// Acquire asks every up node for the lock; it is granted with a majority,
// and otherwise released on the nodes that granted it.
func (q *Quorum) Acquire(owner string) bool {
	granted := 0
	for i, n := range q.nodes {
		if !q.down[i] && n.Acquire(owner).OK {
			granted++
		}
	}
	if granted >= q.Majority() {
		return true
	}
	q.Release(owner)
	return false
}

// Release frees the lock on every up node that owner holds and returns how
// many it freed (0: owner held it nowhere, the pattern's ErrNotHeld).
func (q *Quorum) Release(owner string) int {
	freed := 0
	for i, n := range q.nodes {
		if q.down[i] {
			continue
		}
		if _, ok := n.Release(owner); ok {
			freed++
		}
	}
	return freed
}

// Holder returns the owner holding the lock on a majority of all nodes,
// counting only nodes that are up, if there is one.
func (q *Quorum) Holder() (string, bool) {
	votes := map[string]int{}
	for i, n := range q.nodes {
		if owner, c := n.Holder(); !q.down[i] && c > 0 {
			votes[owner]++
		}
	}
	for owner, v := range votes {
		if v >= q.Majority() {
			return owner, true
		}
	}
	return "", false
}

package node

import (
	"fmt"
	"time"
)

// replica is one replica of a node, fed by asynchronous replication.
type replica struct {
	store   Store        // Native while the primary is native, Mini after
	lag     func() int64 // the delay of the next write shipped to it
	last    int64        // apply time of the newest pending write (keeps order)
	pending int          // writes shipped, not yet applied
	gen     uint64       // bumps when its pending writes must be dropped
	acked   int64        // the primary's offset of the newest write applied
}

// newReplicas makes the replicas cfg asks for: Replicas of them (one if
// 0) when ReplicaDelay is positive or ReplicaLag is set, else none.
func newReplicas(cfg Config) []*replica {
	if cfg.ReplicaDelay <= 0 && cfg.ReplicaLag == nil {
		return nil
	}
	lag := func() int64 { return int64(cfg.ReplicaDelay) }
	if cfg.ReplicaLag != nil {
		lag = func() int64 { return int64(max(cfg.ReplicaLag(), time.Nanosecond)) }
	}
	out := make([]*replica, max(cfg.Replicas, 1))
	for i := range out {
		out[i] = &replica{store: NewNative(), lag: lag}
	}
	return out
}

// replicate ships the state of keys to every replica, each applying it
// after its replication delay, in order. A native primary runs only
// scripts that touch their declared KEYS, so it ships those; a miniredis
// primary may run scripts that touch other keys, so it ships its whole
// key space.
func (n *Node) replicate(keys []string) {
	full := n.native == nil
	if full {
		keys = nil
	}
	states := n.store.Dump(n.now(), keys)
	n.offset++
	for _, r := range n.replicas {
		n.ship(r, states, full)
	}
}

func (n *Node) ship(r *replica, states []KeyState, full bool) {
	at := max(r.last, n.tl.Now()+r.lag())
	r.last = at
	r.pending++
	gen, off := r.gen, n.offset
	n.tl.At(at, func() {
		if r.gen != gen {
			return // dropped by a failover or a resync; counted there
		}
		r.pending--
		if full {
			r.store.Flush()
		}
		r.store.Load(n.now(), states)
		n.stats.Replicated++
		r.acked = max(r.acked, off)
		n.wakeWaits()
	})
}

// drop discards the writes shipped to r and not yet applied.
func (r *replica) drop() {
	r.pending = 0
	r.gen++
}

// resyncReplicas makes every replica a copy of states (a full resync),
// counting the writes still in flight to them as lost.
func (n *Node) resyncReplicas(states []KeyState) {
	for _, r := range n.replicas {
		n.stats.Lost += r.pending
		r.drop()
		r.store.Flush()
		r.store.Load(n.now(), states)
	}
}

// Failover promotes the most up-to-date replica (the fewest writes in
// flight to it; the first of equals), as Sentinel picks the one with the
// largest offset: it becomes the node's store (the old primary is
// discarded), writes it had not received yet are lost, and its script
// cache is empty. The other replicas resynchronise to it and stay, so the
// node can fail over again while one is left. It returns the number of
// writes lost. The node is up afterwards.
func (n *Node) Failover() (lost int, err error) {
	if len(n.replicas) == 0 {
		return 0, fmt.Errorf("node %s: failover: no replica", n.name)
	}
	best := 0
	for i, r := range n.replicas {
		if r.pending < n.replicas[best].pending {
			best = i
		}
	}
	n.closeConns()
	r := n.replicas[best]
	lost = r.pending
	n.stats.Lost += lost
	r.drop()
	n.replicas = append(n.replicas[:best:best], n.replicas[best+1:]...)
	n.store.Close()
	n.store = r.store
	n.native, _ = r.store.(*Native)
	clear(n.scripts)
	n.up = true
	n.resync()
	if len(n.replicas) > 0 {
		states := n.store.Dump(n.now(), nil)
		for _, o := range n.replicas {
			o.drop() // in flight from the old primary: the resync replaces it
			o.store.Flush()
			o.store.Load(n.now(), states)
		}
	}
	return lost, nil
}

// Replicas is the number of replicas attached (each failover uses one).
func (n *Node) Replicas() int { return len(n.replicas) }

package node

import "fmt"

// replicate ships the state of keys to the replica, to be applied after the
// replication delay, in order. A native primary runs only scripts that
// touch their declared KEYS, so it ships those; a miniredis primary may
// run scripts that touch other keys, so it ships its whole key space.
func (n *Node) replicate(keys []string) {
	r := n.replica
	full := n.native == nil
	if full {
		keys = nil
	}
	states := n.store.Dump(n.now(), keys)
	at := max(r.last, n.tl.Now()+r.delay)
	r.last = at
	r.pending++
	gen := n.gen
	n.tl.At(at, func() {
		if n.gen != gen || n.replica != r {
			return // dropped by a failover or a resync; counted there
		}
		r.pending--
		if full {
			r.store.Flush()
		}
		r.store.Load(n.now(), states)
		n.stats.Replicated++
	})
}

// Crash stops the node: commands are refused until Restart. Replication
// already sent still reaches the replica. Under an fsync window
// (SetFsync), an fsync point passed since the last write has made every
// write durable.
func (n *Node) Crash() {
	n.syncUpTo(n.tl.Now())
	n.up = false
}

// Restart brings a crashed node back. The script cache is empty after any
// restart. Without persistence the data is gone too (the fence counter
// with it), and a replica resynchronises to the empty data set.
func (n *Node) Restart(persist bool) {
	n.up = true
	clear(n.scripts)
	defer n.resync()
	if persist {
		return
	}
	n.store.Flush()
	if r := n.replica; r != nil {
		n.stats.Lost += r.pending
		r.pending = 0
		n.gen++
		r.store.Flush()
	}
}

// Failover promotes the replica: it becomes the node's store (the old
// primary is discarded), writes it had not received yet are lost, and its
// script cache is empty. It returns the number of writes lost. The node is
// up afterwards, without a replica.
func (n *Node) Failover() (lost int, err error) {
	r := n.replica
	if r == nil {
		return 0, fmt.Errorf("node %s: failover: no replica", n.name)
	}
	lost = r.pending
	n.stats.Lost += lost
	n.gen++
	n.store.Close()
	n.store, n.replica = r.store, nil
	n.native, _ = r.store.(*Native)
	clear(n.scripts)
	n.up = true
	n.resync()
	return lost, nil
}

// Close releases the node's stores.
func (n *Node) Close() {
	n.store.Close()
	if n.replica != nil {
		n.replica.store.Close()
	}
}

package node

// Crash stops the node: commands are refused until Restart. Replication
// already sent still reaches the replica. Under an fsync window
// (SetFsync), an fsync point passed since the last write has made every
// write durable.
func (n *Node) Crash() {
	n.syncUpTo(n.tl.Now())
	n.closeConns()
	n.up = false
	n.dropBlocked()
}

// Restart brings a crashed node back. The script cache is empty after any
// restart. Without persistence the data is gone too (the fence counter
// with it), and the replicas resynchronise to the empty data set.
func (n *Node) Restart(persist bool) {
	n.up = true
	clear(n.scripts)
	defer n.resync()
	if persist {
		return
	}
	n.store.Flush()
	n.resyncReplicas(nil)
}

// Close releases the node's stores.
func (n *Node) Close() {
	n.store.Close()
	for _, r := range n.replicas {
		r.store.Close()
	}
}

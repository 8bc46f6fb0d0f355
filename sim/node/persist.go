package node

// An AOF node under appendfsync everysec: a background fsync every
// interval makes the writes before it durable; a crash loses the writes
// acknowledged after the last fsync. The model keeps the data set as of
// the last fsync point, taken lazily: fsync points fall on multiples of
// the interval in true time, and since the data set changes only by
// writes (expiry is by absolute time, kept in the state), the state just
// before the first command after a point is the state at that point.

// fsync is a node's fsync window, off unless SetFsync turned it on.
type fsync struct {
	every  int64      // interval in true-time nanoseconds; 0: off
	point  int64      // the last fsync point reached
	synced []KeyState // the data set as of point
	dirty  int        // writes since point
}

// SetFsync gives the node an fsync interval (AOF appendfsync everysec:
// one second), for RestartSynced. Time 0 is the first fsync point, with
// the data set the node has now.
func (n *Node) SetFsync(every int64) {
	n.fsync = fsync{every: every, point: n.tl.Now() / max(every, 1) * every, synced: n.store.Dump(n.now(), nil)}
}

// syncUpTo moves the fsync point to the last multiple of the interval at
// or before true time t; the data set is then durable as it is now.
func (n *Node) syncUpTo(t int64) {
	f := &n.fsync
	if f.every <= 0 {
		return
	}
	if p := t / f.every * f.every; p > f.point {
		f.point, f.synced, f.dirty = p, n.store.Dump(n.now(), nil), 0
	}
}

// resync makes the data set as it is now the synced one, after a restart
// or failover replaced it wholesale.
func (n *Node) resync() {
	if f := &n.fsync; f.every > 0 {
		f.synced, f.dirty = n.store.Dump(n.now(), nil), 0
	}
}

// wrote counts one acknowledged write since the fsync point.
func (n *Node) wrote() {
	if n.fsync.every > 0 {
		n.fsync.dirty++
	}
}

// RestartSynced brings a crashed node back with the data set of its last
// fsync point before the crash (as an AOF node under appendfsync everysec
// does): the writes acknowledged after it are lost, and a replica
// resynchronises to what is left. It returns the number of writes lost.
// Without SetFsync every write was synced: it is Restart(true).
func (n *Node) RestartSynced() int {
	if n.fsync.every <= 0 {
		n.Restart(true)
		return 0
	}
	lost := n.fsync.dirty
	n.up = true
	clear(n.scripts)
	n.store.Flush()
	n.store.Load(n.now(), n.fsync.synced)
	n.fsync.dirty = 0
	n.stats.Unsynced += lost
	n.resyncReplicas(n.fsync.synced)
	return lost
}

package node

import (
	"fmt"
	"maps"
)

// Split brain: a failover in which the old primary is not gone but cut
// off. Sentinel (on the majority side) promotes a replica; the old
// primary, still up, goes on accepting writes from the clients on its side
// of the partition. When the partition heals, Sentinel turns the old
// primary into a replica of the new one (REPLICAOF): the histories have
// diverged, so it resynchronises in full and every write it accepted
// meanwhile is lost.

// Split is a node's split brain in progress: Old is the old primary, a
// node of its own that serves the clients cut off with it.
type Split struct {
	Old *Node
	lag func() int64 // the replication delay of the replica Old becomes
}

// keepOpen is a store whose Close does nothing: Failover closes the store
// it replaces, which under a split brain lives on as the old primary's.
type keepOpen struct{ Store }

func (keepOpen) Close() {}

// SplitBrain fails the node over as Failover does (its most up-to-date
// replica is promoted; the writes it lacked are lost to the new primary,
// lost is their number) while the old primary stays up with its data set
// and its script cache, as Split.Old. Writes to Old are replicated
// nowhere. Rejoin ends the split.
func (n *Node) SplitBrain() (sp *Split, lost int, err error) {
	if len(n.replicas) == 0 {
		return nil, 0, fmt.Errorf("node %s: split brain: no replica", n.name)
	}
	old := &Node{name: n.name + "-old", clk: n.clk, tl: n.tl, store: n.store, native: n.native,
		scripts: maps.Clone(n.scripts), shas: maps.Clone(n.shas), up: n.up,
		useLua: n.useLua, noTwins: n.noTwins}
	sp = &Split{Old: old, lag: n.replicas[0].lag}
	n.store = keepOpen{n.store}
	if lost, err = n.Failover(); err != nil {
		return nil, 0, err
	}
	return sp, lost, nil
}

// Rejoin ends the split sp of n: the old primary becomes a replica of n
// (REPLICAOF n), its data set replaced by a full copy of n's, and stops
// serving clients. It returns the number of keys whose state on the old
// primary differed from n's: what the old primary's side wrote, or kept,
// that is now gone.
func (n *Node) Rejoin(sp *Split) (discarded int, err error) {
	old := sp.Old
	now := n.now()
	mine, theirs := n.store.Dump(now, nil), old.store.Dump(now, nil)
	discarded = differing(mine, theirs)
	r := &replica{store: old.store, lag: sp.lag}
	if n.native == nil {
		if err := r.upgrade(now); err != nil {
			return 0, fmt.Errorf("node %s: rejoin: %w", n.name, err)
		}
	}
	r.store.Flush()
	r.store.Load(now, mine)
	old.up = false
	n.replicas = append(n.replicas, r)
	return discarded, nil
}

// differing counts the keys whose state differs between two dumps (each
// sorted by key).
func differing(a, b []KeyState) int {
	in := map[string]string{}
	for _, k := range a {
		in[k.Key] = fmt.Sprint(k)
	}
	n := 0
	for _, k := range b {
		if s, ok := in[k.Key]; !ok || s != fmt.Sprint(k) {
			n++
		}
		delete(in, k.Key)
	}
	return n + len(in)
}

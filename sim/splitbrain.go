package sim

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/network"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/scenario"
)

// split is a node's split brain in progress: the old primary, and the
// clients that still reach it instead of the new one.
type split struct {
	sp      *node.Split
	clients map[int]bool
}

// nodeEndpoint is node i's network endpoint: its commands go to the node,
// or, from a client cut off with the old primary of a split brain, to
// that old primary.
func (w *world) nodeEndpoint(i int, nd *node.Node) *network.Endpoint {
	ep := network.NodeEndpoint(nd)
	handle := ep.Handle // the node's own: it notes each connection's last write for WAIT
	ep.Handle = func(c int, req network.Message) network.Message {
		if s := w.splits[i]; s != nil && s.clients[c] {
			return network.ReplyMsg{Reply: s.sp.Old.Exec(req.(network.Command).Args)}
		}
		return handle(c, req)
	}
	// WAIT and BLPOP on the node; the old side's block on the old primary,
	// whose WAITs count no replica (it has lost them) and so answer 0 at
	// their timeout.
	block := ep.Defer
	ep.Defer = func(c int, req network.Message, reply func(network.Message, error)) bool {
		if s := w.splits[i]; s != nil && s.clients[c] {
			return network.WaitOn(s.sp.Old, req, reply) || network.Blpop(s.sp.Old, req, reply)
		}
		return block(c, req, reply)
	}
	return ep
}

// splitBrain fails f's node over while its old primary stays up for the
// clients f.A, and, after f.For, rejoins it to the new primary.
func (w *world) splitBrain(f fault.Fault) string {
	i := fault.Index(f.Target)
	if w.splits[i] != nil {
		return "already split: nothing done"
	}
	sp, lost, err := w.nodes[i].SplitBrain()
	if err != nil {
		return err.Error()
	}
	s := &split{sp: sp, clients: map[int]bool{}}
	for _, c := range f.A {
		s.clients[fault.Index(c)] = true
	}
	w.splits[i] = s
	if f.For > 0 {
		w.s.After(int64(f.For), func() { w.rejoin(i, f) })
	}
	return fmt.Sprintf("the replica is primary, %d unreplicated write(s) lost; the old primary stays up for %s", lost, strings.Join(f.A, ","))
}

// rejoin ends node i's split brain: the old primary becomes a replica of
// the new one and loses what its side wrote.
func (w *world) rejoin(i int, f fault.Fault) {
	s := w.splits[i]
	w.splits[i] = nil
	detail := ""
	if n, err := w.nodes[i].Rejoin(s.sp); err != nil {
		detail = err.Error()
	} else {
		detail = fmt.Sprintf("the old primary rejoins as a replica: %d key(s) of its side discarded", n)
	}
	w.struck(history.Event{At: w.s.Now(), Kind: "rejoin", Target: f.Target, Detail: detail}, "ends: "+scenario.FormatFault(f)+": "+detail)
}

// closeSplits closes the old primaries of splits that never rejoined.
func (w *world) closeSplits() {
	for _, s := range w.splits {
		if s != nil {
			s.sp.Old.Close()
		}
	}
}

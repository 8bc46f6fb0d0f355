package node

import "time"

// waiter is one parked WAIT: it is answered when Want replicas have
// applied the write at offset Off, or when its timeout passes.
type waiter struct {
	off   int64
	want  int
	reply func(Reply)
	done  bool
}

// Offset is the node's replication offset: the number of writes it has
// shipped to its replicas. A connection's last write is the offset after
// its last command that wrote (see Wait).
func (n *Node) Offset() int64 { return n.offset }

// acked counts the replicas that have applied the write at offset off.
func (n *Node) acked(off int64) int {
	c := 0
	for _, r := range n.replicas {
		if r.acked >= off {
			c++
		}
	}
	return c
}

// Wait is WAIT numreplicas timeout for a connection whose last write is at
// offset off: reply gets the number of replicas that have applied it, at
// once if at least want have (or want is 0), else as soon as want have, or
// when timeout passes on the node's clock (0: no timeout), like a blocked
// command. A crash or failover of the node drops the parked WAITs
// unanswered: their connection dies with the primary (see Epoch).
func (n *Node) Wait(off int64, want int, timeout time.Duration, reply func(Reply)) {
	n.stats.Commands++
	if c := n.acked(off); c >= want {
		reply(Int(int64(c)))
		return
	}
	w := &waiter{off: off, want: want, reply: reply}
	n.waits = append(n.waits, w)
	if timeout > 0 {
		n.tl.At(n.tl.Now()+n.clk.TrueFor(timeout), func() { n.answer(w); n.prune() })
	}
}

// answer replies to w with the count so far, once.
func (n *Node) answer(w *waiter) {
	if w.done {
		return
	}
	w.done = true
	w.reply(Int(int64(n.acked(w.off))))
}

// wakeWaits answers the parked WAITs that enough replicas now confirm, in
// the order they were parked.
func (n *Node) wakeWaits() {
	for _, w := range n.waits {
		if !w.done && n.acked(w.off) >= w.want {
			n.answer(w)
		}
	}
	n.prune()
}

// prune forgets answered WAITs.
func (n *Node) prune() {
	out := n.waits[:0]
	for _, w := range n.waits {
		if !w.done {
			out = append(out, w)
		}
	}
	clear(n.waits[len(out):])
	n.waits = out
}

// Epoch counts the node's crashes and failovers: each one ends every
// connection to it, so a connection whose last write was made in an
// earlier epoch is dead (a WAIT on it fails instead of counting
// acknowledgements of another primary's writes).
func (n *Node) Epoch() int { return n.epoch }

// closeConns ends every connection to the node: parked WAITs end without
// a reply, and the epoch moves on.
func (n *Node) closeConns() {
	for _, w := range n.waits {
		w.done = true
	}
	n.waits = nil
	n.epoch++
}

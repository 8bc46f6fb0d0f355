package node

import (
	"math"
	"strconv"
	"time"
)

// BLPOP, the one blocking command the lock patterns send (a waiter blocked
// on its wake list, see locks.Blocker). A BLPOP that finds all its lists
// empty is parked on the node until a command or script pushes to one of
// them, or until its timeout passes on the node's own clock (a node whose
// clock runs fast times blocked clients out early, as Redis does); its
// reply then goes back through the network like any other, delayed or
// lost. Parked BLPOPs are served in arrival order, after the command that
// pushed has finished (Redis serves blocked clients between commands). A
// crash closes their connections: each gets a closed-connection failure.
// A parked BLPOP whose caller gave up stays parked and may consume a push
// nobody reads, as when Redis has not yet seen the client disconnect: the
// waiter's bounded poll covers that lost wake-up.

// parked is one BLPOP waiting for a push.
type parked struct {
	keys  []string
	reply func(r Reply, closed bool)
	done  bool
}

// Submit runs one command and hands its reply to reply, at once for every
// command but a BLPOP that has to wait (then later, from a push, its
// timeout, or a crash with closed = true).
func (n *Node) Submit(args []string, reply func(r Reply, closed bool)) {
	if len(args) == 0 || Upper(args[0]) != "BLPOP" {
		reply(n.Exec(args), false)
		return
	}
	n.stats.Commands++
	n.syncUpTo(n.tl.Now())
	keys, timeout, err := blpopArgs(args)
	if err.IsError() {
		reply(err, false)
		return
	}
	if r, ok := n.popFirst(keys); ok {
		reply(r, false)
		return
	}
	n.park(&parked{keys: keys, reply: reply}, timeout)
}

// blpopArgs parses BLPOP key [key ...] timeout (seconds, a decimal; 0
// blocks for ever).
func blpopArgs(args []string) ([]string, time.Duration, Reply) {
	if len(args) < 3 {
		return nil, 0, errArgs("blpop")
	}
	secs, err := strconv.ParseFloat(args[len(args)-1], 64)
	switch {
	case err != nil || math.IsNaN(secs) || math.IsInf(secs, 0):
		return nil, 0, Error("ERR timeout is not a float or out of range")
	case secs < 0:
		return nil, 0, Error("ERR timeout is negative")
	}
	return args[1 : len(args)-1], time.Duration(secs * float64(time.Second)), Reply{}
}

// popFirst pops the head of the first non-empty list of keys, as BLPOP's
// reply [key, element]; a WRONGTYPE key answers with its error.
func (n *Node) popFirst(keys []string) (Reply, bool) {
	for _, k := range keys {
		l := n.do([]string{"LLEN", k})
		if l.IsError() {
			return l, true
		}
		if l.Int > 0 {
			v := n.do([]string{"LPOP", k})
			return Array(Bulk(k), v), true
		}
	}
	return Reply{}, false
}

// park queues p and, for a finite timeout, arms its expiry on the node's
// clock.
func (n *Node) park(p *parked, timeout time.Duration) {
	n.blocked = append(n.blocked, p)
	if timeout <= 0 {
		return
	}
	n.tl.At(n.tl.Now()+n.clk.TrueFor(timeout), func() {
		if !p.done {
			n.unpark(p)
			p.reply(Reply{Kind: KindNil}, false)
		}
	})
}

// unpark removes p from the blocked list.
func (n *Node) unpark(p *parked) {
	p.done = true
	for i, q := range n.blocked {
		if q == p {
			n.blocked = append(n.blocked[:i], n.blocked[i+1:]...)
			return
		}
	}
}

// serveBlocked answers, in arrival order, every parked BLPOP one of whose
// lists now has an element.
func (n *Node) serveBlocked() {
	for i := 0; i < len(n.blocked); {
		p := n.blocked[i]
		r, ok := n.popFirst(p.keys)
		if !ok {
			i++
			continue
		}
		n.unpark(p)
		p.reply(r, false)
	}
}

// dropBlocked fails every parked BLPOP: a crash closed its connection.
func (n *Node) dropBlocked() {
	ps := n.blocked
	n.blocked = nil
	for _, p := range ps {
		p.done = true
		p.reply(Reply{}, true)
	}
}

// Blocked is how many BLPOPs are parked.
func (n *Node) Blocked() int { return len(n.blocked) }

package sim

import (
	"strings"

	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/sched"
)

// Call points (fault.AcquireSent … fault.WriteReply): the network tells the
// world when a client's request has been sent and when its reply arrived;
// the client's phase says what kind of call it belongs to.

// Phases of a client's main goroutine: the call of the Locker or of the
// store it is in, or none.
const (
	phaseAcquire = "acquire"
	phaseRelease = "release"
	phaseExtend  = "extend"
	phaseRead    = "read"
	phaseWrite   = "write"
	phaseRenew   = "renew" // not a phase: a call from a background goroutine
)

// during runs fn with the client in phase p.
func (c *client) during(p string, fn func()) {
	prev := c.phase
	c.phase = p
	defer func() { c.phase = prev }()
	fn()
}

// callKind is the kind of call a request of client c made from g belongs
// to: renew from a background goroutine (one started by Clock.Go, and the
// Parallel children of one), else the main goroutine's phase ("" between
// calls).
func (c *client) callKind(g *sched.G) string {
	if !strings.HasSuffix(g.Root().Name(), "/main") {
		return phaseRenew
	}
	return c.phase
}

// onSent and onReceived are the network's hooks (network.Net.Sent and
// Received).
func (w *world) onSent(c, _ int, g *sched.G)     { w.callPoint(c, g, false) }
func (w *world) onReceived(c, _ int, g *sched.G) { w.callPoint(c, g, true) }

func (w *world) callPoint(c int, g *sched.G, reply bool) {
	cl := w.clients[c]
	kind := cl.callKind(g)
	if kind == "" {
		return
	}
	cl.reach(fault.CallPoint(kind, reply))
	if kind == phaseAcquire && !reply {
		w.acquireSent(cl)
	}
}

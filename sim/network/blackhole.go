package network

// A black-holed link is a half-open connection: the client's requests
// still reach the endpoint and are executed, but no reply ever comes back
// and nothing tells the client so — no reset, no refusal. The call ends
// only on the client's own timeout, its context, or never, while the
// command it sent has taken effect. A partition (Partition) loses the
// requests too; a black hole is the failure a dead NAT entry, a stalled
// proxy or a peer that stopped reading shows, where the server acted and
// the client cannot know it.

// BlackHole starts (on) or ends a black hole on the link; black holes nest.
func (l *Link) BlackHole(on bool) {
	if on {
		l.hole++
	} else if l.hole > 0 {
		l.hole--
	}
}

// Holed reports whether replies on the link vanish.
func (l *Link) Holed() bool { return l.hole > 0 }

// swallowed reports, and counts and traces, a reply that a black hole
// takes; note says where (at the endpoint, or in flight).
func (n *Net) swallowed(l *Link, r *reply, note string) bool {
	if !l.Holed() {
		return false
	}
	n.stats.Dropped++
	n.stats.Holed++
	n.traceMsg(l, "←", r, note)
	return true
}

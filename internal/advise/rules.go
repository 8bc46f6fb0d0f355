package advise

import "fmt"

// The rules that map a situation to what models it: the scenarios, the
// candidates, and the one finding that counts as a failure there.

// Kind is the finding that counts in a situation.
type Kind struct {
	Name string // as Residual and Evidence name it
	What string // what a failing seed is, for the text
	// Claim is the claim kind it belongs to: safety or liveness, never
	// both in one judgement.
	Claim string
	of    func(c *Cell) Count
}

var (
	kindOverlap = Kind{"overlap", "seeds in which two clients relied on the lock at once (a double run)", "safety",
		func(c *Cell) Count { return c.Overlap }}
	kindLost = Kind{"lost-update", "seeds with a lost update at the store (tokens checked where the pattern issues them)", "safety",
		func(c *Cell) Count { return c.Lost }}
	kindExcess = Kind{"excess", "seeds with more holders at once than the slots", "safety",
		func(c *Cell) Count { return c.Excess }}
	kindStall = Kind{"stall", "seeds in which the lock stayed free past the progress bound (5 TTLs)", "liveness",
		func(c *Cell) Count { return c.Stall }}
)

// kind is the finding that counts in s: when a double run is harmless
// only progress matters; when the store checks tokens, a lost update;
// otherwise the double run itself (or, with slots, one holder too many).
func kind(s Situation) Kind {
	switch {
	case s.DoubleRun == DoubleHarmless:
		return kindStall
	case s.Access == AccessSlots:
		return kindExcess
	case s.DoubleRun == DoubleTokens:
		return kindLost
	}
	return kindOverlap
}

// Scenario names a measured scenario and why the situation includes it.
type scen struct {
	name, why string
	// wait is the twin measured with WAIT 1 after every grant and
	// renewal, "" if none: every failover's scenario has one, so that a
	// lock that waits for replicas is judged under each.
	wait string
}

// scenarios are those that model s: the network's faults always, then
// one group per dimension that brings faults of its own.
func scenarios(s Situation) (out []scen, notJudged []string) {
	add := func(why string, names ...string) {
		for _, n := range names {
			out = append(out, scen{name: n, why: why})
		}
	}
	add("every network delays, cuts and loses messages", "delayed-reply", "partition", "lossy-link", "blackhole-renewal")
	add("a release can reach a lock another holds", "wrong-owner-release")
	switch s.Topology {
	case TopoSingle:
		add("one node restarts with what its last fsync kept", "node-restart-without-persistence", "fsync-everysec")
	case TopoFsyncAlways:
		add("one node restarts with every write it acknowledged", "fsync-always")
	case TopoReplicas:
		for _, n := range []string{"failover-async-replication", "failover-twice", "failover-lag-exp", "failover-lag-slow", "failover-mid-grant", "failover-mid-retry", "split-brain"} {
			out = append(out, scen{name: n, why: "a failover to an asynchronous replica", wait: n + "-wait"})
		}
	case TopoIndependent:
		add("any one node restarts empty or fails over", "node-restart-without-persistence", "failover-async-replication")
		notJudged = append(notJudged, "independent nodes restarting with their data (appendfsync always) or only after a TTL: not measured; the restart measured loses the node's keys")
		if s.Nodes != 5 {
			notJudged = append(notJudged, fmt.Sprintf("%d independent nodes: the simulator measured 5; a majority of %d tolerates %d nodes lost", s.Nodes, s.Nodes, (s.Nodes-1)/2))
		}
	}
	switch s.Pauses {
	case PausesAbove:
		add("a client pauses, sometimes for less than the TTL", "gc-storm-below-ttl")
		add("a client pauses longer than the TTL", "gc-pause", "gc-storm", "retry-pause", "paused-grant")
	case PausesBelow:
		add("a client pauses, always for less than the TTL: a pause late in a holding still outlasts the lease", "gc-storm-below-ttl")
	}
	if s.Work == WorkUnbounded {
		add("the work outlasts the TTL", "slow-work", "long-work-extended")
	}
	switch s.Clocks {
	case ClocksJump:
		add("clocks drift or jump", "client-clock-drift", "client-clock-jump", "node-clock-jump")
	default:
		notJudged = append(notJudged, "clock drift and jumps: you said the clocks are stable, so client-clock-drift, client-clock-jump and node-clock-jump are left out")
	}
	switch s.Access {
	case AccessSlots:
		if s.Slots != 2 {
			notJudged = append(notJudged, fmt.Sprintf("%d slots: the semaphore was measured with 2 permits", s.Slots))
		}
	}
	return out, notJudged
}

// fit ranks how well p serves s's topology and access: 0 made for it, 1
// or 2 serves it less well (for readers: a read-write lock measured at
// one read per write, then a mutex; a lock without order for FIFO), -1
// cannot serve it.
func fit(s Situation, p *Pattern) int {
	if p.Broken || p.PartOf != "" {
		return -1
	}
	multi := p.Nodes > 1
	if multi != (s.Topology == TopoIndependent) {
		return -1 // independent nodes are judged apart from one node's patterns
	}
	exclusive := !p.Shared && p.MaxHolders == 0
	switch s.Access {
	case AccessReadMostly:
		switch {
		case p.Shared && p.Reads > 1:
			return 0 // measured under a read-mostly load
		case p.Shared:
			return 1 // readers share, measured at one read per write
		case exclusive:
			return 2
		}
	case AccessSlots:
		if p.MaxHolders > 0 {
			return 0
		}
	case AccessFIFO:
		if p.FIFO {
			return 0
		}
	default:
		if exclusive {
			return 0
		}
	}
	return -1
}

// complexity counts the mechanisms a pattern adds to one SET NX PX: more
// nodes, renewal, tokens, a queue, shared or counted holdings, a hold
// count for re-entry. Among
// candidates the evidence does not tell apart, the simplest is used.
func complexity(p *Pattern) int {
	n := 0
	if p.Nodes > 1 {
		n += 4
	}
	for _, b := range []bool{p.Renews, p.Tokens, p.FIFO, p.Shared, p.MaxHolders > 0, p.Reentrant} {
		if b {
			n++
		}
	}
	return n
}

// Package sim runs a lock pattern, unchanged, in a deterministic simulation:
// simulated clients run the real locks code against simulated Redis nodes
// over a simulated network, while a scenario injects faults, and oracles
// judge the outcome from true time.
//
//	p, err := pattern.Lookup("fenced") // or your own pattern.Pattern
//	if err != nil {
//		log.Fatal(err)
//	}
//	sc, err := scenario.Lookup("gc-pause", p.Nodes) // or scenario.Parse of a file
//	if err != nil {
//		log.Fatal(err)
//	}
//	res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: 7, Trace: os.Stdout})
//	if err != nil {
//		log.Fatal(err) // the run did not complete: the error names the pattern, scenario, seed and cause
//	}
//	fmt.Println(res.Summary())
//
// The pattern is any pattern.Pattern: one of locksim's or one defined
// outside this module (examples/ is such a module). Its constructor gets
// each client's connections, the key, and locks.Options carrying the
// client's simulated clock.Clock and locks.Rand, plus the scenario's TTL
// and pattern directive (scenario.PatternOptions). A run whose code under
// test panics, returns a nil lease with a nil error (ErrNilLease),
// meets a defect of the simulator itself (ErrDefect: a call in flight
// past its read timeout that nothing can resume any more), or
// blocks outside the seams (the scheduler's stall error names the
// goroutine, after Config.StallAfter of real time) fails with an error
// instead of a Result. package locksimtest runs a pattern under every
// scenario and seed from go test.
//
// Same (pattern, scenario, seed) ⇒ the same trace, history and result, byte
// for byte: one goroutine runs at a time (package sched), every random draw
// comes from a PCG stream of its own (network links, each client's workload
// and tokens, faults), time starts at a fixed epoch, and nothing iterates a
// map where order shows.
//
// # World
//
// Each client is a sched.Proc whose clock.Clock the pattern uses; it holds
// one Locker built by the pattern's constructor (pattern.New) over its own connections
// (network.RedisClient) to every node (node.Node). The protected resource
// is a store ("db"), a counter behind the same network. Each client loops:
//
//	Acquire (bounded by acquire-timeout; the pattern retries inside)
//	  → read the counter (with the lease's fence token)
//	  → work (work ± jitter on its own clock; with extend-every, extending
//	    the lease by hand every so often, for a locks.Extender)
//	  → check lease.Err(), as a careful user does; if lost, skip the write
//	    (check=no: the careless user, who never looks)
//	  → prepare the write (prep), write counter+1 with the fence token
//	  → Release → think
//
// Faults trigger at a true time or at these points (fault.Point), at once
// or after= later: the workload points above, and the call points — a
// request of a kind of call just sent, or its reply just arrived before the
// caller sees it (acquire, release, extend by hand, renew from a background
// goroutine, read and write of the store) — and the start of the N-th
// attempt of one acquisition (acquire-attempt, see attempts.go). A starve
// fault stops only a client's background goroutines (sched.Proc.Starve);
// pause stops them all. A blackhole makes a link half-open: requests are
// delivered and executed, replies vanish (network.Link.BlackHole); a
// partition loses both.
// Result.Faults records, per fault of the scenario, whether it fired and,
// when it did not, why as precisely as the run can tell: "the run ends at
// 1s" for a time past the end, "c1 reached write only 37 times in the
// run's 1s (n=100000)" for a point reached too few times. A run in which
// a fault did not fire did not test what its scenario says;
// FaultsSummary puts it in words ("faults fired: 2 of 3; ...").
//
// # Oracles
//
// The run has one stream of events (stream.go, oracle.Event): each client
// reports what it does with the lock — wanting, granted or refused,
// acting on its lease, abandoning a write, read and wrote, releasing and
// released — the store each request it executes, and the scheduler each
// event it ran. The world records each event once: the history op and
// the trace line of a call that returned, and the event itself to every
// oracle of the run in order (safety, progress, loss signal). The
// oracles live in package oracle, one file each; they read the run only
// through oracle.View (true time, the clients' names, the nodes' keys,
// the pause spans) and report their findings to one oracle.Log.
//
// Mutual exclusion. A lease's critical section is the true-time interval
// from the moment Acquire returned it to the last moment its holder relied
// on it: its last passed lease check, or the instant its last store read
// or write took effect at the store (which may be after the client gave up
// on that call). Two sections of different clients that intersect are an
// overlap: both clients acted as holders at one instant. A lease that its
// holder stopped trusting (a failed check) and never used again ends at its
// last reliance, so a careful client that notices an expiry is not blamed;
// one whose check went stale (a pause between check and write) is. The
// server's view is deliberately not the criterion: on one node it can never
// show two owners, and the harm is done by clients acting on stale belief.
//
// Holder kinds. A lease marked Shared (pattern.ReadLease) is a read
// (shared) holding: two read sections never overlap each other, while a
// write section overlaps any other section. A pattern that claims
// MaxHolders N (and not Mutex) is judged by counting instead of pairing:
// each time a section grows, the oracle sweeps the stretch of true time it
// newly covers and counts the distinct clients holding at each instant;
// more than N is a "holders" violation (once per section), counted in
// Safety.Excess, and Safety.PeakHolders is the most seen at once.
//
// Lost updates. Each accepted write sets the counter to the value its
// client read plus one; a write accepted when the counter no longer holds
// that value overwrites other clients' increments. LostUpdates = accepted
// writes − final counter value. The store checks fencing tokens when a
// request carries one (Fence > 0): it remembers the highest token it has
// seen on any request, and rejects writes whose token is lower.
//
// Fence monotonicity. A granted fence token must be new (never granted
// before) and greater than every token granted by an Acquire that returned
// before this Acquire was called.
//
// Liveness. Acquisitions, failed acquisitions, the wait of each successful
// Acquire, and stuck clients: those that acquired nothing in the last
// max(20×TTL, 1s) of the run (in a shorter run: nothing at all).
//
// Progress. A client wants the lock from its call of Acquire to its grant
// (a refused attempt goes on wanting: the client tries again), and the
// lock must not stay free for long while one does: a stall is a stretch of
// true time in which some client wants the lock and no client holds a
// lease (from Acquire's return to the call of Release); time in which
// every client is thinking between sections is none. A stall longer than
// ProgressBound (the pattern's Claims.Progress TTLs, DefaultProgressTTLs
// if it claims none) is a "stall" violation, also when it is still open at the end of the
// run. It catches a lock held on after its holder is gone (a renewal that
// outlives the release) and a queue that serves nobody; a single client
// starving while others take turns is Liveness.Stuck, not a stall.
//
// Loss signal. For every holding whose lock the server let go before its
// holder called Release — fewer than a quorum of the nodes (one of one)
// hold its token at its key (or, where the pattern says its holdings live
// elsewhere, pattern.Pattern.Holding, every mark of it: a semaphore
// permit's token in its set and its own expiring key): it expired, was
// deleted or re-granted, or a restart or failover lost it — the oracle
// measures the true time until the holder learnt of it: its lease's Done
// closed (by its timer, a renewal, or the Release it called, which closes
// it on finding the validity run out), or that Release returned an error.
// The scheduler reports every event
// (sched.Sched.AfterEvent), and key expiries are computed from the node's
// clock, so both instants are exact. Result.LossSignal has the counts,
// the largest and p99 latencies, and the losses the holder acted on
// (checked, read, wrote) before it knew; a latency above LossSignalBound
// (the pattern's Claims.LossSignal percent of the TTL) is a "late-signal"
// violation.
//
// The result names the pattern's claims (pattern.Claims) that were
// violated: Mutex by an overlap, SafeStore by a lost update, Fencing by a
// fence violation, MaxHolders ("max-holders") by a section past the limit,
// Progress by a stall, LossSignal ("loss-signal") by a late signal.
//
// # Outputs
//
// A readable trace (t=0.102345s c2→n1 EVALSHA release lock c2-1-ab12cd), a
// history.History (source "sim", true-time ns, history.Unknown for calls
// cut off by the end of the run or whose reply was lost, an Event per
// fault) and a Result that marshals to JSON.
package sim

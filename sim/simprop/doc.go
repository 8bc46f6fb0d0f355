// Package simprop property-tests the lock patterns in the simulator: rapid
// draws fault schedules, the simulator runs the real lock code under them,
// and a property — what a pattern claims, under the faults it is meant to
// tolerate — judges every run. A failing schedule shrinks to a short one,
// is written as a scenario file, and replays with
//
//	locksim run --pattern P --scenario FILE --seed N
//
// # Cases
//
// A Case is a scenario.Scenario (a property's fixed base: clients, TTL,
// workload, network; plus drawn faults) and a simulator seed. Cases draws
// them with rapid: a list of at most Envelope.MaxFaults faults, each of a
// kind the envelope allows, with its target, trigger (a true time, or the
// n-th time a client reaches a workload point) and size drawn within the
// envelope's bounds. Shrinking removes faults and makes the rest earlier
// and smaller, so a counterexample ends short; Envelope.Admits holds any
// schedule, drawn or read from a file, to the same rules.
//
// # Properties and their envelopes
//
// Every run: 2 clients (3 where noted), TTL 100ms, half a simulated
// second, the default workload (work 20±10ms, think 10ms, the lease
// checked right before the write, which is sent at that instant; Acquire
// and Release bounded by 1s), one-way latency 0.2–0.5ms with 1% of
// messages up to 1ms later (so a write sent in the last instant of a valid
// lease lands inside the 2ms constant of the drift allowance).
//
//	property      patterns                           envelope
//	mutex         basic reentrant watchdog service   MutexEnvelope
//	              fair rwlock-write redlock
//	mutex-nested  reentrant service                  MutexEnvelope, each section re-entered once (Nested)
//	renewal       watchdog service                   RenewalEnvelope
//	safe-store    fenced watchdog-fenced fair-fenced FencedEnvelope (default network)
//	              service-fenced
//	rw-exclusion  rwlock (3 clients)                 MutexEnvelope
//	max-holders   semaphore (3 clients)              MutexEnvelope
//	fifo          fair                               FIFOEnvelope
//	loss-signal   every pattern that claims it       LossSignalEnvelope
//
// mutex: no two clients act as holders at one instant of true time (the
// simulator's overlap oracle). Claimed under pauses of any client at any
// true time and pauses or slow steps at the work and release points, up to
// 5 TTL (a pause cannot fall between the lease check and the write, which
// happen at one instant, nor between the grant and the read); client
// clocks stepped ±2s (validity is measured on the monotonic clock) and
// drifting within ±0.5%; nodes drifting within ±0.5% (a client and a node
// then differ by at most the 1% DriftFactor) and stepped back; client–node
// partitions, losses and slow links of up to 150ms each (five stay under
// the 1s a Release waits); client–store partitions and losses; node
// crashes that keep the data, or lose it only after 2 TTL down (a delayed
// restart), each node at most once and, with several nodes, at most a
// minority of them.
//
// Not claimed — left out of the envelope: a pause or slow step between
// grant and read or between check and write (the holder acts on a lease
// that ran out; fencing is the answer); a node clock stepped forward (keys
// expire early; for Redlock, one node's jump suffices when the holder had
// a bare quorum); drift beyond the allowance; a slow link to the store (a
// write that lands after the lease); a release request that arrives after
// its Release gave up (Reentrant and Service hold since each acquisition
// has its own entry in the hash — TestLateReleasesHold and
// testdata/outside/reentrant-stale-release.txt — but the arithmetic of the
// other claims assumes no such delay); a node restarting without
// its data within 2 TTL; a failover to a replica that missed the lock; a
// majority of Redlock nodes crashing.
//
// TestEnvelopesAreTight widens an envelope by one excluded fault at a
// time — pauses at the write and acquired points, forward node jumps,
// slow links to the store, late release requests, immediate restarts
// without persistence, failover; pauses for renewal; restarts without
// persistence and failover for fencing — and expects rapid to find a
// counterexample on a correct pattern each time.
//
// mutex-nested: as mutex, with every section entered twice and the inner
// entry left before the section runs: leaving it must not free the lock.
//
// renewal: a holder that keeps running keeps the lock, however long its
// steps: slow steps at every workload point up to 5 TTL, with the clock
// faults of mutex. Not claimed under pauses (the watchdog stops with its
// process) or any fault that cuts renewals off while a step that follows
// the lease check runs long.
//
// safe-store: a store that checks fencing tokens never loses an update,
// and tokens strictly increase (the lost-update and fence oracles).
// Claimed under every fault but the loss of the fence counter: pauses and
// slow steps anywhere (between check and write too), client and node
// clocks stepped ±2s and drifting ±50%, partitions, losses and slow links
// to the nodes and to the store, crashes that keep the data or never
// restart. Not claimed when a node restarts without persistence or fails
// over: the counter restarts and tokens repeat (the seed's warning).
//
// rw-exclusion: a writer's lease overlaps no other client's lease, read
// or write; max-holders: at most pattern.SemaphorePermits leases at once;
// fifo: a client that calls Acquire more than the latency after another
// is not granted before it, under client clocks stepped ±2s and drifting
// ±10% (the order must not depend on them) and node drift within ±0.5%,
// with no fault that can make a waiter vanish and lose its place. These
// three are judged from the run's history: a lease is held from its
// grant to the last request its holder sent under it.
//
// loss-signal: a holder learns that the server let its lock go — its
// lease's Done closes, or its Release fails — within its pattern's bound
// (Claims.LossSignal percent of the TTL: 1ms for a validity timer, 70ms
// for a renewal; the simulator's loss-signal oracle). Claimed where the
// lock is lost only by its key running out, which the holder's timer sees
// first: pauses anywhere (the time a process is stopped is not charged)
// and slow steps up to 5 TTL, the clock faults of mutex, partitions,
// losses and slow links to the nodes and the store, and crashes of a
// minority of the nodes that keep their data. Not claimed when something
// takes the lock before its key runs out (a node clock stepped forward, a
// restart without persistence, a failover), under drift beyond ±0.5% (the
// timer runs on the holder's clock), or for a CPU-starved timer: the
// gate's breaks lines show each. TestLossSignalPropertyCatchesALateDone
// has it catch watchdog-late-done.
//
// # Counterexamples
//
// A failing check writes its case to <dir>/<pattern>.<property>.txt: a
// comment header (the property, the violation, the replay command) and
// the scenario. rapid's last run is the shrunk case, so the file ends as
// the minimal schedule. Load reads it back and Replay runs it again. The
// mutex-nested property re-enters every section and leaves the inner entry
// at once (Nested); locksim run does not (its workload reenter=yes holds
// the inner entry through the work), so those counterexamples replay
// through Replay.
//
// # Mutations
//
// Mutations names, for every broken variant of the catalog, the correct
// pattern it imitates and the property that must catch it. The tests hunt
// each with rapid within a bounded number of checks, check that the
// shrunk counterexample re-parses, reproduces on the variant and is
// passed by the correct pattern, and log the mutation table. The minimal
// counterexamples are kept in testdata/counterexamples/.
package simprop

// Package scenario is the simulator's input: how many nodes and clients,
// the lock TTL, how long to run, what the clients do, how the network
// behaves, and the faults to inject — as a struct and as a small text
// format that round-trips with it.
//
// # Format
//
// One directive per line; '#' starts a comment; blank lines are ignored.
// Every directive but start is optional and has defaults.
//
//	scenario gc-pause
//	summary a client pauses between its lease check and its write
//	start nodes=1 clients=2 ttl=100ms duration=1s
//	pattern renew-every=30ms drift=0.01 node-timeout=10ms retry-attempts=3 retry-max-delay=200ms
//	workload work=20ms jitter=10ms think=10ms prep=0s check=yes acquire-timeout=1s retry=10ms
//	net latency=200us jitter=300us tail=1% tail-latency=5ms loss=0% timeout=3s
//	replicas delay=50ms
//	pause c1 on=write for=150ms
//	slow c2 on=acquired after=30ms for=50ms
//
// start: nodes (0 or absent: the pattern's own count), clients, ttl (the
// lock TTL), duration (of simulated time). workload: each client loops
// acquire → read the store → work (work ± jitter) → check its lease →
// prepare the write (prep) → write → release → think; check=yes is the
// careful client, which checks its lease before writing and abandons the
// write when the lease is gone; check=no the careless one, which never
// looks; acquire-timeout bounds each Acquire; retry is the first
// retry backoff; reenter=yes makes each section take the lock again,
// nested, and release that inner holding after the work, before the lease
// check and the write (written only when set); extend-every=D extends the
// lease by hand (patterns that implement locks.Extender; written only when
// set) after every D of work, or with extend-on=write once, after the lease
// check and before preparing the write; a careful client abandons its
// write when an extension is refused; misuse=yes makes each client, after
// every release, release that lease again, its previous lease and another
// client's last lease (written only when set). net: one-way latency = latency + uniform[0, jitter], plus
// with probability tail a uniform[0, tail-latency]; loss per message;
// timeout is the client-side read timeout. replicas gives every node a
// replica fed by asynchronous replication with that delay: delay=D (every
// write D late), delay=exp(D) (each write's delay to each replica drawn
// exponential with mean D) or delay=uniform(D) (uniform on [0, 2D]), a
// replica still applying its writes in order; the draws come from a PCG
// stream of each node's own. n=N gives every node N replicas (written only
// when set; default one), so that it can fail over N times: a failover
// promotes the replica with the fewest writes in flight and the others
// resynchronise to it. A split brain (splitbrain n1 … old=c1) takes
// a replica like a failover, and the old primary it leaves up becomes one
// again when it rejoins.
//
// pattern sets the options every client's locker is built with
// (locks.Options, see PatternOptions): renew-every (the watchdog's
// period, less than ttl; the built-in patterns that do not renew are
// built without it, see pattern.NoRenewal), drift (the drift factor, 0 ≤ drift < 0.5),
// node-timeout (each Redlock node request), retry-attempts (absent: retry
// until acquire-timeout), retry-max-delay (the backoff cap),
// wait-replicas and wait-timeout (WAIT for that many replicas after every
// grant and renewal: the single-node locks, Basic to Service). It also takes
// ttl, nodes and retry-delay, which are start's ttl and nodes and
// workload's retry, so that one line holds a team's settings:
//
//	pattern ttl=30s renew-every=10s retry-attempts=3 retry-delay=10ms retry-max-delay=200ms
//
// A field may be given on one line only. Absent fields keep the
// pattern's defaults.
//
// Fault lines are described in package fault. A schedule is a fault
// line drawn over the run (every=, c* or n*, exp(D), uniform(D),
// uniform(±D); see fault.Schedule):
//
//	pause c* every=exp(1s) for=exp(50ms)
//	drift c* rate=uniform(±200ppm)
//
// Format writes a schedule canonically (at=0s, every=, then the kind's
// fields); the simulator expands it into plain faults. Durations are Go durations
// (150ms, 1.5s, 200us; a sign is allowed where it matters: by=+2s); rates
// are percentages (1%, 0.25%) or parts per million (2500ppm); booleans are
// yes/no.
//
// # Limits
//
// A run has at most 1000 clients, 99 nodes and 24h of simulated time,
// and its fault lines stand for at most 100,000 fault occurrences in all
// (MaxFaults): a plain fault line counts 1; a schedule counts its targets
// (c* every client, n* every node) times the occurrences on each: (the
// time left after at=) / (every= plus a for= given as a value), plus one.
// With a gap given as a value that is an upper bound; with a drawn gap
// (exp(D), uniform(D)) it is the mean count, and the simulator stops a
// run whose draws reach twice the limit (sim.MaxDrawnFaults). Validate
// refuses a file over the limit before anything runs, naming the line,
// the count and the limit:
//
//	line 2: pause: field every: 90,910,000 fault occurrences, over the limit of 100,000 in a run (1,000 targets × at most 90,910 each in 1s; …)
//
// every= takes a positive gap (every=0s is refused as every=exp(0s) is;
// leave every= out for one occurrence). The workload's size depends on
// the pattern and on every draw, so the simulator caps it as it runs: a
// run stops after recording sim.MaxOps operations (1,000,000), when the
// process's live heap passes sim.MaxLiveHeap (2 GiB) or after
// sim.MaxEvents events (200,000,000): an error of the run, not of the
// file (locksim exits 3).
//
// The lock settings (ttl, renew-every, drift, node-timeout, retry-delay,
// retry-max-delay, wait-replicas, wait-timeout) are checked by the lock's
// own rules (locks.Options, as a pattern that renews takes them), so a
// file is refused with the lock's message: pattern drift=0.7 gives "line
// 2: pattern: field drift: locks: DriftFactor (0.7) must be in [0, 0.5)
// …". Whether a pattern takes renew-every or wait-replicas at all, and
// its node count, are its constructor's to say once the pattern is known.
//
// docs/scenarios.md in the repository is the guide to the format, with
// an example of every directive, fault and trigger, each parsed by a test.
//
// Parse reports the line and the field of the first error. Format writes
// the canonical text, which Parse reads back to an equal Scenario.
package scenario

// Package realmode runs the simulator's workload, protected store, oracles
// and history against real processes on this machine, with each fault
// done for real, so that a verdict of the simulator can be confirmed (or
// contradicted) on redis-server, and lock libraries that read the wall
// clock and start their own goroutines can be judged at all.
//
// One coordinator (Run) starts redis-server processes on free loopback
// ports (package redisserver), starts every client as its own OS process (a binary that
// calls ClientMain), and keeps the protected store and the oracles
// (sim.Judge) and the history in one true time: the coordinator's
// monotonic clock. A client announces each operation before it makes it
// and reports its outcome after, and waits for the coordinator at each
// workload point, so every recorded interval contains the real one and a
// fault triggered at a point takes effect before the client goes on.
// The client protocol (JSON lines, protocol.go) is public and versioned
// (ProtocolVersion, docs/real-protocol.md): a client in any language can
// be judged, and CheckClient is its conformance check, each message
// validated field by field (validate.go).
//
// Every claim the simulator judges is judged here with the simulator's
// definitions and bounds: the safety oracles (sim.Judge), progress (a
// stall past sim.ProgressBound) and loss-signal (losswatch.go: each
// holding watched on every redis-server, its loss the first instant it
// is on fewer than a quorum — a key's PEXPIRETIME, a restart without it, or
// the look that saw it gone — against the instant the client process saw
// its lease's Done close or its Release refused, its planned pauses left
// out with the time its heartbeat saw it not run, within
// sim.LossSignalBound). A claim a run could not judge is
// listed in Result.NotJudged, never counted as held. Each client's
// watcher goroutine also ticks a heartbeat every 2ms: Result.Stops is
// each client's largest gap less its planned pauses, and Descheduled
// marks a run in which one exceeded TTL/StopFraction — the machine, not
// the scenario, stopped a client.
//
// A run lasts the scenario's duration of real time, and longer where a
// fault needs it: a loaded machine may start or slow a client so that it
// reaches a fault's point late, so the run waits for a triggered fault
// that has not fired (at most max(duration, 3s) more), and for a fault
// that fired for its For and two TTLs more (at most the hang bound): the
// clients then act in its shadow as they would have in time. Wall gives
// the run's real length.
//
// Faults, for real:
//
//	pause     SIGSTOP of the client process, SIGCONT after For
//	slow      a real sleep at the client's next workload step
//	crash     SIGKILL of redis-server, restarted on the same port after For,
//	          with its data (AOF, appendfsync always) or without
//	jump      a node's: every key's expiry shifted by the jump inside
//	          redis-server, by a Lua script (PEXPIRE to PTTL − jump); a
//	          client's: its Clock's Now stepped (Since stays monotonic)
//	partition every client–node call goes through a TCP proxy (Link) of the
//	          coordinator's: the links across the sides black-hole for For
//	slowlink  those proxies delay what is sent in the direction by By
//	drift     (a client's, from the start) its Clock runs at 1 + rate: the
//	          lock's validity arithmetic and the workload's sleeps
//	failover  a scenario with replicas gives every node a redis-server
//	          started with --replicaof through a proxy that holds what the
//	          primary sends for the replication delay; the failover cuts
//	          that link (what it held is lost), promotes the replica with
//	          REPLICAOF NO ONE, SIGKILLs the old primary and re-points every
//	          client's proxy for the node to the replica
//
// Each client process builds its lock with the scenario's lock settings
// (scenario.Scenario.LockOptions), as the simulator does: the TTL, the
// first retry backoff and every option of the pattern line (renew-every,
// drift, node-timeout, retry-attempts, retry-max-delay, wait-replicas and
// wait-timeout: WAIT counts the real replica a scenario with replicas
// gives every node, and none without). Settings the pattern's constructor
// refuses end the run before any process starts (CheckBuild, ErrRefused,
// with the constructor's *locks.OptionError naming the field and value);
// a library subject, whose adapter takes the TTL and the first retry
// backoff only, is refused any pattern-line option, by name.
//
// A scenario with any other fault is refused by name (Supported): message
// loss (TCP retransmits, so it has no real equivalent), a node's
// drift, a drift that starts later, a link fault on the protected store;
// and a client's clock fault for a library subject (Config.Library), which
// keeps its own time (its runtime's clocks). Every
// process started is stopped when the run ends, fails or is cancelled
// (the CLI cancels on SIGINT and SIGTERM), within ShutdownBound whatever
// a client does, and carries a parent-death signal so that none outlives
// a coordinator killed outright. Each client runs in a process group of
// its own, signalled whole: a pause stops, and the end kills, what a
// client wrapper forked too. A fault the coordinator could not perform (a
// crashed node that does not restart: its port taken, the server exiting
// or not answering PING in time; a failed promotion or expiry shift) ends
// the run with an error naming the node and the cause, never a verdict.
//
// A Result carries, as a simulated run's does, the firing record of
// each fault (Faults): whether and when it fired, or why not; a triggered
// fault with after= fires that long after its point. Agreement runs the
// table's cells; MergeAgreement replaces some cells of an agreement file
// with those of a later run, each cell keeping the run (Source) it came
// from.
//
//	res, err := realmode.Run(ctx, realmode.Config{Pattern: p, Scenario: sc, Client: []string{locksimBinary, "real-client"}})
package realmode

package simprop

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// The runs every property shares: the default workload (work 20ms ± 10ms,
// think 10ms, no time between the lease check and the write, the check
// made, acquire-timeout 1s) with a 100ms TTL for half a simulated second, and
// a network whose one-way latency is 0.2–0.5ms plus, for 1% of messages,
// up to quietTail more.
const (
	TTL      = 100 * time.Millisecond
	Duration = 500 * time.Millisecond
	// quietTail keeps every one-way latency (at most 1.5ms) inside the
	// 2ms constant of the patterns' drift allowance: a write sent in the
	// last instant of a valid lease reaches the store before the key
	// expires.
	quietTail    = time.Millisecond
	replicaDelay = 50 * time.Millisecond
	// drift is the largest |drift| of a clock inside the mutex envelopes:
	// any client and any node then differ by at most 1%, the default
	// DriftFactor.
	drift = 5000
)

var (
	before = []fault.Point{fault.Work, fault.Release}
	fifoAt = 2 * time.Millisecond // margin of the first-come check: above any one-way latency
)

// MutexEnvelope is what a lock that claims mutual exclusion is meant to
// tolerate, given a careful holder (it checks its lease before writing,
// and writes at once).
//
//   - pauses of any client at any true time, and pauses and slow steps at
//     the work and release points (after the read, before the check; after
//     the write), up to 5 TTL;
//   - client wall clocks stepped ±2s (validity is measured on the
//     monotonic clock) and drift within ±0.5%; node drift within ±0.5%
//     (any pair within the 1% DriftFactor) and node clocks stepped back;
//   - client–node partitions, losses and slow links (≤150ms each, so five
//     together stay under the 1s a release waits: a release request that
//     arrives after its Release gave up takes an entry of the owner's next
//     holding in an owner-keyed reentrant lock), client–store partitions
//     and losses;
//   - node crashes, restarting with their data, or without it only after
//     2 TTL (a delayed restart) or never; with several nodes, at most a
//     minority of them crash.
func MutexEnvelope() Envelope {
	return Envelope{Name: "mutex", MaxFaults: 5,
		Pause:  Steps{Timed: true, Points: before, Max: 5 * TTL},
		Slow:   Steps{Points: before, Max: 5 * TTL},
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: drift},
		Node:   Clocks{Jump: 2 * time.Second, Drift: drift},
		Links:  Links{Partition: true, Loss: true, Slow: 150 * time.Millisecond, DB: true},
		Crash:  Crashes{Persist: true, Volatile: 2 * TTL, Minority: true},
	}
}

// RenewalEnvelope is what a renewing lock adds: a holder that keeps
// running keeps the lock, however long its steps take — slow steps at any
// workload point up to 5 TTL, with the clock faults of MutexEnvelope and
// nothing that stops the renewals (no pauses, links or crashes).
func RenewalEnvelope() Envelope {
	return Envelope{Name: "renewal", MaxFaults: 4,
		Slow:   Steps{Points: fault.WorkloadPoints, Max: 5 * TTL},
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: drift},
		Node:   Clocks{Jump: 2 * time.Second, Drift: drift},
	}
}

// FencedEnvelope is what fencing with a checking store tolerates: every
// fault but a node that loses its data — pauses and slow steps anywhere
// (between check and write too), clocks stepped ±2s and drifting ±50%
// (nodes included), partitions, losses and slow links to the nodes and to
// the store, crashes with persistence or for good.
func FencedEnvelope() Envelope {
	return Envelope{Name: "fenced", MaxFaults: 5,
		Pause:  Steps{Timed: true, Points: fault.WorkloadPoints, Max: 5 * TTL},
		Slow:   Steps{Points: fault.WorkloadPoints, Max: 5 * TTL},
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: 500_000},
		Node:   Clocks{Jump: 2 * time.Second, Forward: true, Drift: 500_000},
		Links:  Links{Partition: true, Loss: true, Slow: 150 * time.Millisecond, DB: true, DBSlow: true},
		Crash:  Crashes{Persist: true},
	}
}

// FIFOEnvelope is what a fair lock's order tolerates: client clocks
// stepped ±2s and drifting ±10%, node drift within ±0.5%; no fault that
// makes a waiter vanish (pauses, links, crashes).
func FIFOEnvelope() Envelope {
	return Envelope{Name: "fifo", MaxFaults: 3,
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: 100_000},
		Node:   Clocks{Drift: drift},
	}
}

// ProgressEnvelope is what no lock should fail to make progress under:
// slow steps at any workload point up to 2 TTL and the client clock faults
// of MutexEnvelope — nothing that keeps every client from the nodes.
func ProgressEnvelope() Envelope {
	return Envelope{Name: "progress", MaxFaults: 3,
		Slow:   Steps{Points: fault.WorkloadPoints, Max: 2 * TTL},
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: drift},
	}
}

// LossSignalEnvelope is what a lock that claims a loss signal tells its
// holder of in time: every fault under which the lock is lost only by its
// key running out (the holder's validity timer fires first) or is kept —
// pauses of any client at any true time and pauses and slow steps at any
// workload point up to 5 TTL (the time a process is stopped is not
// charged), client clocks stepped ±2s and drifting within ±0.5%, node
// drift within ±0.5% and node clocks stepped back, partitions, losses and
// slow links (≤150ms) to the nodes and the store, and crashes of a
// minority of the nodes that restart with their data.
func LossSignalEnvelope() Envelope {
	return Envelope{Name: "loss-signal", MaxFaults: 5,
		Pause:  Steps{Timed: true, Points: fault.WorkloadPoints, Max: 5 * TTL},
		Slow:   Steps{Points: fault.WorkloadPoints, Max: 5 * TTL},
		Client: Clocks{Jump: 2 * time.Second, Forward: true, Drift: drift},
		Node:   Clocks{Jump: 2 * time.Second, Drift: drift},
		Links:  Links{Partition: true, Loss: true, Slow: 150 * time.Millisecond, DB: true},
		Crash:  Crashes{Persist: true, Minority: true},
	}
}

// Properties returns every property, in a fixed order.
func Properties() []Property {
	return []Property{
		{Name: "mutex", Clients: 2, Envelope: MutexEnvelope(), Judge: overlapJudge,
			Patterns: []string{"basic", "reentrant", "watchdog", "service", "fair", "rwlock-write", "redlock", "redlock-watchdog", "watchdog-fenced", "service-fenced", "fair-fenced"},
			Claim:    "no two clients act as holders at one instant of true time",
			Outside:  "pauses and slow steps between grant and read or between check and write, forward node clock jumps, drift beyond ±0.5%, slow links to the store, a release request delayed past its Release (reentrant locks), restarts without persistence within 2 TTL, failover, a majority of Redlock nodes crashing"},
		{Name: "mutex-nested", Clients: 2, Nested: true, Envelope: MutexEnvelope(), Judge: overlapJudge,
			Patterns: []string{"reentrant", "service", "service-fenced"},
			Claim:    "as mutex, with every section re-entered once and the inner entry left before the section runs: leaving it does not free the lock",
			Outside:  "as mutex"},
		{Name: "renewal", Clients: 2, Envelope: RenewalEnvelope(), Judge: overlapJudge,
			Patterns: []string{"watchdog", "service", "watchdog-fenced", "service-fenced"},
			Claim:    "a holder whose process keeps running keeps the lock through steps longer than the TTL",
			Outside:  "pauses (the watchdog stops too), and any fault that cuts the renewals off while a step after the lease check runs long"},
		{Name: "safe-store", Clients: 2, Envelope: FencedEnvelope(), Judge: safeStoreJudge,
			// service-fenced since a failed release ends its holding and the
			// owner's next Acquire removes the entry it left (rapid found the
			// repeat: a crash with persistence as the release is sent;
			// testdata/outside/service-fenced-reentry-after-lost-release.txt).
			Patterns: []string{"fenced", "watchdog-fenced", "fair-fenced", "service-fenced"},
			Claim:    "a store that checks fencing tokens never loses an update, and tokens strictly increase",
			Outside:  "a node that restarts without persistence or fails over: the counter restarts and tokens repeat",
			base:     func(s *scenario.Scenario) { s.Net.Latency = scenario.Default().Net.Latency }},
		{Name: "rw-exclusion", Clients: 3, Envelope: MutexEnvelope(), Judge: rwJudge,
			Patterns: []string{"rwlock", "rwlock-read-mostly"},
			Claim:    "a writer's lease overlaps no other client's lease, read or write (clients alternate write and read, or read nine times per write)",
			Outside:  "as mutex"},
		{Name: "max-holders", Clients: 3, Envelope: MutexEnvelope(), Judge: holdersJudge(pattern.SemaphorePermits),
			Patterns: []string{"semaphore"},
			Claim:    fmt.Sprintf("at most %d leases are held at one instant", pattern.SemaphorePermits),
			Outside:  "as mutex"},
		{Name: "progress", Clients: 2, Envelope: ProgressEnvelope(), Judge: stallJudge,
			Patterns: []string{"basic", "watchdog", "fenced", "redlock", "redlock-watchdog", "watchdog-fenced"},
			Claim:    "the lock is never free for more than 5 TTL while clients want it (a run of 1s)",
			Outside:  "faults that keep every client from the lock: partitions of all clients, crashes, long pauses",
			base:     func(s *scenario.Scenario) { s.Duration = time.Second }},
		{Name: "loss-signal", Clients: 2, Envelope: LossSignalEnvelope(), Judge: lossJudge,
			Patterns: []string{"basic", "reentrant", "watchdog", "service", "fenced", "watchdog-fenced", "service-fenced", "redlock", "redlock-watchdog",
				"fair", "fair-fenced", "rwlock", "rwlock-read-mostly", "rwlock-write", "semaphore"},
			Claim:   "a holder learns that the server let its lock go (Done closes, or its Release fails) within the pattern's bound: 1% of the TTL for a timer, 70% for a renewal",
			Outside: "whatever takes the lock from the server before its key runs out — forward node clock jumps, restarts without persistence, failover — and clock drift beyond ±0.5% (the timer runs on the holder's clock); a CPU-starved timer"},
		{Name: "fifo", Clients: 2, Envelope: FIFOEnvelope(), Judge: fifoJudge,
			Patterns: []string{"fair"},
			Claim:    "a client that calls Acquire later than another (by more than the latency) is not granted first",
			Outside:  "pauses, link faults and crashes, which can make a waiter vanish and lose its place"},
	}
}

func overlapJudge(r *sim.Result) string {
	if r.Safety.Overlaps == 0 {
		return ""
	}
	return fmt.Sprintf("mutual exclusion: %d overlapping sections; first: %s", r.Safety.Overlaps, firstViolation(r, "overlap"))
}

func lossJudge(r *sim.Result) string {
	if r.LossSignal.Late == 0 {
		return ""
	}
	return fmt.Sprintf("loss signal: %d loss(es) learnt past the %v bound (largest latency %v); first: %s",
		r.LossSignal.Late, r.LossSignal.Bound, r.LossSignal.Max, firstViolation(r, "late-signal"))
}

func stallJudge(r *sim.Result) string {
	if r.Liveness.Stalls == 0 {
		return ""
	}
	return fmt.Sprintf("progress: %d stall(s); first: %s", r.Liveness.Stalls, firstViolation(r, "stall"))
}

func safeStoreJudge(r *sim.Result) string {
	switch {
	case r.Safety.LostUpdates > 0:
		return fmt.Sprintf("%d lost update(s); first: %s", r.Safety.LostUpdates, firstViolation(r, "lost-update"))
	case r.Safety.FenceViolations > 0:
		return fmt.Sprintf("%d fencing token(s) not increasing; first: %s", r.Safety.FenceViolations, firstViolation(r, "fence"))
	}
	return ""
}

func rwJudge(r *sim.Result) string {
	if v := writerExclusion(holdings(r.History)); v != "" {
		return "read-write exclusion: " + v
	}
	return ""
}

func holdersJudge(n int) func(*sim.Result) string {
	return func(r *sim.Result) string {
		if v := holderBound(holdings(r.History), n); v != "" {
			return "holder bound: " + v
		}
		return ""
	}
}

func fifoJudge(r *sim.Result) string {
	if v := queueJump(holdings(r.History), fifoAt); v != "" {
		return "first come, first served: " + v
	}
	return ""
}

func firstViolation(r *sim.Result, kind string) string {
	for _, v := range r.Violations {
		if v.Kind == kind {
			return fmt.Sprintf("t=%s %s", fmtT(v.At), v.Detail)
		}
	}
	return "(not listed)"
}

// Mutation names, for one broken variant of the catalog, the correct
// pattern it imitates and the property of that pattern whose envelope
// holds the faults its pitfall needs: the property must find a
// counterexample on the variant, and none on the correct pattern.
type Mutation struct {
	Variant, Correct, Property string
	Why                        string // how the pitfall shows inside the envelope
}

// Mutations lists every broken variant of the catalog.
func Mutations() []Mutation {
	return []Mutation{
		{"basic-del", "basic", "mutex",
			"a holder outlives its TTL (a pause or slow step before its check), abandons its write, and its DEL frees the next holder's lock"},
		{"reentrant-nocount", "reentrant", "mutex-nested",
			"leaving the inner entry deletes the key while the outer section still runs"},
		{"watchdog-renew-ttl", "watchdog", "renewal",
			"a step longer than the TTL: the renewal is due when the key expires, too late to keep it"},
		{"service-seconds", "service", "mutex",
			"a 100ms TTL becomes an expiry of 0: the key is gone as soon as it is set"},
		{"fenced-volatile", "fenced", "safe-store",
			"the counter expires a TTL after the last acquisition: any gap of a TTL (a long section, a pause, a partition) starts tokens again at 1"},
		{"redlock-novalidity", "redlock", "mutex",
			"a pause inside Acquire, after the requests went out: the quorum is counted after the keys expired and trusted for a full TTL"},
		{"redlock-fenced-pernode", "fenced", "safe-store",
			"nodes that miss acquisitions (cut off, lossy, down) fall behind, and a later quorum of them issues a token already issued"},
		{"fair-clock-queue", "fair", "fifo",
			"a client whose wall clock is ahead queues behind clients that came after it"},
		{"basic-shared-token", "basic", "mutex",
			"a holder outlives its TTL and abandons its write; its release passes the owner check with the shared token and frees the next holder's lock"},
		{"redlock-shared-token", "redlock", "mutex",
			"a client pauses in its attempt, which times out with every answer unknown, so it gives its token back on every node: with the shared token that deletes the keys of the client that took the lock meanwhile"},
		{"watchdog-late-done", "watchdog", "mutex",
			"c1 is cut off from the node while a slow step runs: its renewals time out and are tried again, the key expires and c2 takes the lock, and c1, whose lease has no validity of its own, passes its check and writes beside c2"},
		{"watchdog-zombie-renewal", "watchdog", "progress",
			"none needed: after the first release the orphaned renewal re-creates the key and holds it for the rest of the run"},
		{"rwlock-shared-count", "rwlock", "rw-exclusion",
			"the seed's lock grants however late (a pause inside Lock past the TTL hands out a lease already expired), and a stray read release frees a reader's count"},
	}
}

// MutationOf returns the mutation of the named variant.
func MutationOf(variant string) (Mutation, error) {
	for _, m := range Mutations() {
		if m.Variant == variant {
			return m, nil
		}
	}
	return Mutation{}, fmt.Errorf("simprop: no mutation for variant %q", variant)
}

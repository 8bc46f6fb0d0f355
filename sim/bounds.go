package sim

import (
	"errors"
	"fmt"
	"runtime/metrics"
)

// ErrCap is the error of a run stopped at one of its caps: the history's
// MaxOps operations, MaxDrawnFaults fault occurrences or MaxLiveHeap of
// live heap (its memory), or MaxEvents events (its work). A file's fault
// lines are held to scenario.MaxFaults before the run; the workload's
// size depends on the pattern and on every draw, so it is capped as it
// runs.
var ErrCap = errors.New("the run reached its cap")

// MaxOps caps the operations a run records in its history, about 260
// bytes each with what the oracles keep beside them (a lease, a wait).
// Runs stopped at the cap were measured at 720 MB (basic, 8 clients, at
// t=5,494s), 870 MB (basic, 1,000 clients, at t=4,475s) and 2.2 GB
// (redlock, 1,000 clients giving up after 1ms, at t=11s) of resident
// memory; the live heap of that redlock run was 71 MB at 271,039
// operations, the rest garbage not yet collected and stacks.
const MaxOps = 1_000_000

// MaxEvents caps the simulator events a run takes (sched.Sched.MaxEvents):
// a few minutes of one core (basic with 1,000 clients ran 1,025,810 events
// in 1.3 s), so that a run whose events hold no memory (clients retrying
// inside one Acquire for 24h) still ends.
const MaxEvents = 200_000_000

// MaxLiveHeap caps the process's live heap (the runtime's
// /gc/heap/live:bytes, as of its last collection), read every
// sched.WatchEvery events: what bounds the memory of a run whose state
// grows without recording operations (a pattern's keys, a node's queue).
// The heap is the process's, so runs made in parallel (explore, check)
// share the cap; a run stopped by it is an error, never a verdict. The
// CLI also sets the runtime's soft memory limit (SoftMemoryLimit), so
// that the collector holds the heap near the live bytes well before.
const MaxLiveHeap = 2 << 30

// SoftMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// the CLI sets when GOMEMLIMIT does not give one: above MaxLiveHeap, so
// that the collector works harder only near the cap.
const SoftMemoryLimit = 3 << 30

// maxOps, maxEvents and maxLiveHeap are MaxOps, MaxEvents and
// MaxLiveHeap, lowered by the tests of the caps.
var (
	maxOps      = MaxOps
	maxEvents   = uint64(MaxEvents)
	maxLiveHeap = uint64(MaxLiveHeap)
)

// heapWatch is the scheduler's Watch: ErrCap once the live heap is over
// maxLiveHeap.
func (w *world) heapWatch() error {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return nil
	}
	if live := sample[0].Value.Uint64(); live > maxLiveHeap {
		return fmt.Errorf("%w: its memory cap of %d MiB of live heap, with %d MiB live by t=%s of %v (MaxLiveHeap; shorten the duration or use fewer clients)",
			ErrCap, maxLiveHeap>>20, live>>20, fmtT(w.s.Now()), w.sc.Duration)
	}
	return nil
}

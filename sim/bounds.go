package sim

import "errors"

// ErrCap is the error of a run stopped at one of its memory caps: the
// history's MaxOps operations, or MaxDrawnFaults fault occurrences. A
// file's fault lines are held to scenario.MaxFaults before the run; the
// workload's size depends on the pattern and on every draw, so it is
// capped as it runs.
var ErrCap = errors.New("the run reached its memory cap")

// MaxOps caps the operations a run records in its history. Each costs
// about 200 bytes with what the oracles keep per operation (a lease, a
// wait), so a run stays under about 1 GiB: one client that acquires every
// millisecond for half an hour, or a thousand clients for a few seconds
// of a busy lock.
const MaxOps = 1_000_000

// maxOps is MaxOps, lowered by the test of the cap.
var maxOps = MaxOps

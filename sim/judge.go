package sim

import (
	"fmt"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/oracle"
)

// Judge is the simulator's protected store and oracles, for runs whose
// clients are not simulated: real processes on real redis-servers report
// their grants, lease checks and store calls, and a Judge gives the same
// verdict a simulated run would, from the same code. Times are true time
// in nanoseconds (the caller's one monotonic clock).
//
// A Judge is not safe for concurrent use: the caller serialises calls,
// in true-time order.
type Judge struct {
	claims pattern.Claims
	log    *oracle.Log
	safety *oracle.SafetyOracle
	db     *store
	grants int
	writes []int
}

// judgeView is what a Judge's oracle reads of a run it is told of.
type judgeView struct {
	now   func() int64
	names []string
}

func (v judgeView) Now() int64 { return v.now() }

func (v judgeView) Name(c int) string {
	if c < 0 || c >= len(v.names) {
		return fmt.Sprint("c", c+1)
	}
	return v.names[c]
}

func (judgeView) Stopping() bool                 { return false }
func (judgeView) Nodes() []oracle.Node           { return nil }
func (judgeView) Paused(int, int64, int64) int64 { return 0 }

// NewJudge judges a run of len(names) clients (client c is names[c]) of a
// pattern that claims claims; now is true time.
func NewJudge(claims pattern.Claims, names []string, now func() int64) *Judge {
	j := &Judge{claims: claims, writes: make([]int, len(names))}
	v := judgeView{now: now, names: names}
	j.log = oracle.NewLog(v, nil)
	j.safety = oracle.NewSafety(v, j.log, claims)
	j.db = newStore(j.safety.Observe, func(c int) { j.writes[c]++ })
	return j
}

// Grant opens a critical section for a lease client c was granted now, by
// an Acquire called at call, with fencing token fence (0: none); read
// marks a shared (read) holding. It returns the lease id that later calls
// name.
func (j *Judge) Grant(c int, call, fence int64, read bool) int {
	id := j.grants
	j.grants++
	j.safety.Observe(oracle.Event{Kind: oracle.Granted, Client: c, Lease: id, Call: call, Fence: fence, Shared: read})
	return id
}

// Check records the careful user's lease check before the write: held
// says whether the lease was still valid on the client's clock. A failed
// check is an abandoned write; a passed one is an act of the holder.
func (j *Judge) Check(lease int, held bool) {
	if !held {
		j.safety.Observe(oracle.Event{Kind: oracle.Abandoned, Client: -1})
		return
	}
	j.safety.Observe(oracle.Event{Kind: oracle.Acting, Lease: lease, What: "check"})
}

// Read executes a read of the protected counter by client c under lease
// (with its fencing token) now, and returns the value.
func (j *Judge) Read(c, lease int, fence int64) int64 {
	return j.db.handle(c, storeReq{fence: fence, lease: lease}).value
}

// Write executes client c's write of value, computed from read, under
// lease now; it reports whether the store accepted it (a fencing store
// rejects a token below the highest it has seen).
func (j *Judge) Write(c, lease int, fence, read, value int64) bool {
	return j.db.handle(c, storeReq{write: true, value: value, read: read, fence: fence, lease: lease}).accepted
}

// Writes returns the number of writes the store accepted from client c.
func (j *Judge) Writes(c int) int { return j.writes[c] }

// Safety returns what the oracles found so far, with the store's final
// counter and the lost updates it implies.
func (j *Judge) Safety() Safety { return safetyOf(j.safety, j.db) }

// Violations returns the first violations found, in time order, and the
// number found in all.
func (j *Judge) Violations() ([]Violation, int) {
	return j.log.Violations(), j.log.Count()
}

// Violated names the safety claims the run broke so far. Progress (a
// stall) is judged by the simulator's own run only: a Judge is told of
// grants and writes, not of every release.
func (j *Judge) Violated() []string { return violated(j.claims, j.Safety(), Liveness{}) }

// safetyOf is the oracles' counts completed by the store's final counter.
func safetyOf(or *oracle.SafetyOracle, db *store) Safety {
	s := or.Safety()
	s.Counter = int(db.value)
	s.LostUpdates = max(s.Accepted-s.Counter, 0)
	return s
}

// ViolatedWith names the claims the run broke, its safety so far and
// the liveness l another oracle measured (real mode's progress).
func (j *Judge) ViolatedWith(l Liveness) []string { return violated(j.claims, j.Safety(), l) }

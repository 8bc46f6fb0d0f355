package sim

import (
	"fmt"
	"io"
	"time"

	"github.com/locksim/locksim/history"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/oracle"
	"github.com/locksim/locksim/sim/scenario"
)

// Config is one run.
type Config struct {
	Pattern  pattern.Pattern
	Scenario scenario.Scenario // its node count may be 0: the pattern's
	Seed     uint64
	// Trace, if set, receives the readable trace.
	Trace io.Writer
	// Backend is the nodes' store (default node.BackendNative).
	Backend node.Backend
	// StallAfter bounds, in real time, one step of a simulated goroutine
	// (default sched.DefaultStallAfter).
	StallAfter time.Duration
}

// Key is the lock key every client uses; StoreKey names the protected
// counter in the history's read, write and section ops.
const (
	Key      = "lock"
	StoreKey = "counter"
)

// Result is the verdict of one run. It marshals to JSON.
type Result struct {
	Pattern  string   `json:"pattern"`
	Scenario string   `json:"scenario"`
	Seed     uint64   `json:"seed"`
	Nodes    int      `json:"nodes"`
	Claims   []string `json:"claims"`
	Violated []string `json:"violated"` // claims broken in this run
	Safety   Safety   `json:"safety"`
	Liveness Liveness `json:"liveness"`
	// LossSignal is what the loss-signal oracle measured: how long each
	// holder took to learn that the server let its lock go.
	LossSignal LossSignal     `json:"loss_signal"`
	Clients    []ClientResult `json:"clients"`
	// Violations lists the first violations found, in time order.
	Violations []Violation `json:"violations"`
	Stats      Stats       `json:"stats"`
	// Faults says, for each fault of the scenario in order, whether it
	// fired (FaultsSummary puts it in words).
	Faults []FaultFiring `json:"faults"`

	// History is the run's history (written separately, not in the JSON).
	History *history.History `json:"-"`
}

// Safety counts what the oracles found (oracle.Safety).
type Safety = oracle.Safety

// Liveness summarises progress.
type Liveness struct {
	Acquisitions int           `json:"acquisitions"`
	Failures     int           `json:"failures"` // Acquire calls that returned an error
	WaitMean     time.Duration `json:"wait_mean_ns"`
	WaitP50      time.Duration `json:"wait_p50_ns"`
	WaitP99      time.Duration `json:"wait_p99_ns"`
	WaitMax      time.Duration `json:"wait_max_ns"`
	Stuck        []string      `json:"stuck"` // clients with no acquisition in the last stretch
	// Stalls counts the stretches longer than the progress bound in which
	// some client wanted the lock and none held it; LongestStall is the longest such stretch
	// of the run, long or not.
	Stalls       int           `json:"stalls"`
	LongestStall time.Duration `json:"longest_stall_ns"`
}

// ClientResult is one client's share.
type ClientResult struct {
	Name         string `json:"name"`
	Acquisitions int    `json:"acquisitions"`
	Failures     int    `json:"failures"`
	Writes       int    `json:"writes"` // accepted
	// Extends counts the manual extensions (Workload.ExtendEvery), and
	// ExtendFailures those refused or failed.
	Extends        int `json:"extends,omitempty"`
	ExtendFailures int `json:"extend_failures,omitempty"`
}

// Violation is one oracle finding (oracle.Violation).
type Violation = oracle.Violation

// Stats describe the run itself.
type Stats struct {
	SimTime    time.Duration `json:"sim_time_ns"`
	Events     uint64        `json:"events"`
	Switches   uint64        `json:"switches"`
	Commands   int           `json:"commands"` // Redis commands the nodes executed
	Messages   int           `json:"messages"`
	Dropped    int           `json:"dropped"`
	Checksum   string        `json:"checksum"` // digest of every scheduling decision
	Backends   []string      `json:"backends"` // each node's store at the end
	Violations int           `json:"violations"`
}

// Summary is a one-line verdict.
func (r *Result) Summary() string {
	verdict := "ok"
	if len(r.Violated) > 0 {
		verdict = fmt.Sprintf("VIOLATED %v", r.Violated)
	}
	return fmt.Sprintf("%s under %s, seed %d: %s — overlaps %d, lost updates %d, fence violations %d, acquisitions %d, stale writes rejected %d",
		r.Pattern, r.Scenario, r.Seed, verdict, r.Safety.Overlaps, r.Safety.LostUpdates, r.Safety.FenceViolations,
		r.Liveness.Acquisitions, r.Safety.StaleRejected) + r.holdersSummary()
}

// holdersSummary adds the holder counts of a run judged by them.
func (r *Result) holdersSummary() string {
	if r.Safety.PeakHolders == 0 {
		return ""
	}
	return fmt.Sprintf(", peak holders %d, sections past the limit %d", r.Safety.PeakHolders, r.Safety.Excess)
}

package explore

import (
	"fmt"
	"sort"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// Progress and NoStarvation are the liveness properties each cell counts
// beside the claims, whether or not the pattern claims them. A run breaks
// Progress (pattern.Claims.Progress) when some client wanted the lock and
// none held it for longer than the bound, sim.ProgressBound (sim.Liveness.Stalled); it
// breaks NoStarvation, which no pattern claims but the gate can expect,
// when some client acquired nothing in the last stretch of the run
// (sim.Liveness.Starved).
const (
	Progress     = string(pattern.ClaimProgress)
	NoStarvation = "no-starvation"
)

// Liveness names the liveness properties every cell counts.
var Liveness = []string{Progress, NoStarvation}

// Found counts the runs of a cell that broke one claim (or a Liveness
// property).
type Found struct {
	Runs      int     `json:"runs"`
	FirstSeed *uint64 `json:"first_seed,omitempty"`
}

func (f *Found) note(seed uint64) {
	f.Runs++
	f.FirstSeed = minSeed(f.FirstSeed, &seed)
}

func (f *Found) add(g Found) {
	f.Runs += g.Runs
	f.FirstSeed = minSeed(f.FirstSeed, g.FirstSeed)
}

func minSeed(a, b *uint64) *uint64 {
	switch {
	case a == nil:
		return b
	case b == nil || *a <= *b:
		return a
	}
	return b
}

// Tally is the integer aggregate of some runs of one cell. Adding tallies
// is commutative and associative, which makes reports independent of the
// order runs finish in and lets shards merge.
type Tally struct {
	Runs          int     `json:"runs"`
	ViolatingRuns int     `json:"violating_runs"` // runs that broke some claim
	FirstViolated *uint64 `json:"first_violating_seed,omitempty"`
	// Broke has an entry for each claim of the pattern and for each
	// Liveness property.
	Broke map[string]*Found `json:"broke"`

	Overlaps        int64 `json:"overlaps"`
	LostUpdates     int64 `json:"lost_updates"`
	FenceViolations int64 `json:"fence_violations"`
	StaleRejected   int64 `json:"stale_rejected"`
	Abandoned       int64 `json:"abandoned"`
	Acquisitions    int64 `json:"acquisitions"`
	Failures        int64 `json:"failures"`
	WaitTotal       int64 `json:"wait_total_ns"` // sum over runs of mean wait × acquisitions
	WaitMax         int64 `json:"wait_max_ns"`
	StuckClients    int64 `json:"stuck_clients"` // summed over runs
	// Violations counts every oracle finding (sim.Stats.Violations);
	// ClaimViolations the findings of the claims the pattern makes
	// (sim.Result.ClaimViolations, what the verdict judges), and
	// SimTimeNs the simulated time of the completed runs: the rates of
	// RatePerSimHour and RatePerMillionAcquisitions. Unclaimed counts,
	// per claim the pattern does not make, its findings
	// (sim.Result.Unclaimed): not violations of this pattern, and in no
	// rate.
	Violations      int64            `json:"violations"`
	ClaimViolations int64            `json:"claim_violations"`
	Unclaimed       map[string]int64 `json:"unclaimed,omitempty"`
	SimTimeNs       int64            `json:"sim_time_ns"`

	// Errors counts runs the simulator could not complete; FirstError is
	// the message of the lowest such seed.
	Errors         int     `json:"errors"`
	FirstErrorSeed *uint64 `json:"first_error_seed,omitempty"`
	FirstError     string  `json:"first_error,omitempty"`

	// Faults counts, for each fault of the cell's scenario in order, the
	// runs in which it fired and those in which it did not.
	Faults []FaultCount `json:"faults"`
}

func newTally(claims []string) Tally {
	t := Tally{Broke: map[string]*Found{Progress: {}, NoStarvation: {}}}
	for _, c := range claims {
		t.Broke[c] = &Found{}
	}
	return t
}

// one is the tally of a single run.
func one(claims []string, seed uint64, r *sim.Result, err error) Tally {
	t := newTally(claims)
	t.Runs = 1
	if err != nil {
		t.Errors, t.FirstErrorSeed, t.FirstError = 1, &seed, err.Error()
		return t
	}
	for _, c := range r.Claims {
		t.found(c)
	}
	if len(r.Violated) > 0 {
		t.ViolatingRuns, t.FirstViolated = 1, &seed
	}
	for _, c := range r.Violated {
		if c != Progress {
			t.found(c).note(seed)
		}
	}
	if r.Liveness.Stalled() {
		t.Broke[Progress].note(seed)
	}
	if r.Liveness.Starved() {
		t.Broke[NoStarvation].note(seed)
	}
	s, l := r.Safety, r.Liveness
	t.Overlaps, t.LostUpdates, t.FenceViolations = int64(s.Overlaps), int64(s.LostUpdates), int64(s.FenceViolations)
	t.StaleRejected, t.Abandoned = int64(s.StaleRejected), int64(s.Abandoned)
	t.Acquisitions, t.Failures = int64(l.Acquisitions), int64(l.Failures)
	t.WaitTotal, t.WaitMax = int64(l.WaitMean)*int64(l.Acquisitions), int64(l.WaitMax)
	t.StuckClients = int64(len(l.Stuck))
	t.Violations, t.SimTimeNs = int64(r.Stats.Violations), int64(r.Stats.SimTime)
	t.ClaimViolations = int64(r.ClaimViolations())
	for _, f := range r.Unclaimed() {
		t.addUnclaimed(f.Claim, int64(f.Count))
	}
	t.Faults = faultsOfRun(seed, r)
	return t
}

func (t *Tally) found(claim string) *Found {
	f := t.Broke[claim]
	if f == nil {
		f = &Found{}
		t.Broke[claim] = f
	}
	return f
}

// Add adds u's runs to t.
func (t *Tally) Add(u Tally) {
	t.Runs += u.Runs
	t.ViolatingRuns += u.ViolatingRuns
	t.FirstViolated = minSeed(t.FirstViolated, u.FirstViolated)
	if t.Broke == nil {
		t.Broke = map[string]*Found{}
	}
	for c, f := range u.Broke {
		t.found(c).add(*f)
	}
	t.Overlaps += u.Overlaps
	t.LostUpdates += u.LostUpdates
	t.FenceViolations += u.FenceViolations
	t.StaleRejected += u.StaleRejected
	t.Abandoned += u.Abandoned
	t.Acquisitions += u.Acquisitions
	t.Failures += u.Failures
	t.WaitTotal += u.WaitTotal
	t.WaitMax = max(t.WaitMax, u.WaitMax)
	t.StuckClients += u.StuckClients
	t.Violations += u.Violations
	t.ClaimViolations += u.ClaimViolations
	for _, c := range sortedKeys(u.Unclaimed) {
		t.addUnclaimed(c, u.Unclaimed[c])
	}
	t.SimTimeNs += u.SimTimeNs
	t.addErrors(u)
	t.Faults = addFaults(t.Faults, u.Faults)
}

func (t *Tally) addUnclaimed(claim string, n int64) {
	if t.Unclaimed == nil {
		t.Unclaimed = map[string]int64{}
	}
	t.Unclaimed[claim] += n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func (t *Tally) addErrors(u Tally) {
	t.Errors += u.Errors
	if first := minSeed(t.FirstErrorSeed, u.FirstErrorSeed); first != t.FirstErrorSeed {
		t.FirstErrorSeed, t.FirstError = first, u.FirstError
	}
}

// AcquisitionsPerRun is the mean number of acquisitions of a run.
func (t Tally) AcquisitionsPerRun() float64 {
	if t.Runs == 0 {
		return 0
	}
	return float64(t.Acquisitions) / float64(t.Runs)
}

// RatePerSimHour is the number of claim violations per hour of simulated
// time (0 when no time was simulated), as run and the report count them.
func (t Tally) RatePerSimHour() float64 {
	return sim.PerSimHour(t.ClaimViolations, time.Duration(t.SimTimeNs))
}

// RatePerMillionAcquisitions is the number of claim violations per
// million successful acquisitions (0 when there were none).
func (t Tally) RatePerMillionAcquisitions() float64 {
	return sim.PerMillionAcquisitions(t.ClaimViolations, t.Acquisitions)
}

// WaitMean is the mean wait of a successful Acquire.
func (t Tally) WaitMean() time.Duration {
	if t.Acquisitions == 0 {
		return 0
	}
	return time.Duration(t.WaitTotal / t.Acquisitions)
}

// Summary is a one-line account of the tally.
func (t Tally) Summary() string {
	return fmt.Sprintf("%d/%d runs violating, overlaps %d, lost updates %d, fence violations %d, %.1f acquisitions/run, %d stuck",
		t.ViolatingRuns, t.Runs, t.Overlaps, t.LostUpdates, t.FenceViolations, t.AcquisitionsPerRun(), t.StuckClients)
}

package sim

import (
	"time"

	"github.com/locksim/locksim/pattern"
)

// The rates of a run count what its verdict counts: the findings of the
// claims its pattern makes. Findings of a claim the pattern does not make
// (the overlaps a fencing store makes harmless, the lost updates of a
// read-write lock's readers, who share by design) are Unclaimed: reported
// beside the rates, never in them.

// ClaimFinding is how many times one run broke one claim, by that claim's
// own oracle count.
type ClaimFinding struct {
	Claim string `json:"claim"`
	// Count is, for mutex, the overlapping pairs of sections; for
	// safe-store, the lost updates; for fencing, the reused or decreasing
	// tokens; for max-holders, the sections past the limit; for progress,
	// the stalls past the bound; for loss-signal, the losses signalled
	// late.
	Count int `json:"count"`
	// What names the count: "overlaps", "lost updates", ...; Kind is the
	// Violation.Kind of its findings ("overlap", "lost-update", ...).
	What string `json:"what"`
	Kind string `json:"kind"`
	// Claimed says the pattern makes the claim: the verdict judges it.
	Claimed bool `json:"claimed"`
}

// ClaimLossSignal is the loss-signal claim's name in Result.Claims.
const ClaimLossSignal = "loss-signal"

// The kinds of claim, as ClaimKind names them: a verdict that counts one
// kind never counts another's findings.
const (
	KindSafety     = "safety"     // mutex, safe-store, fencing, max-holders
	KindLiveness   = "liveness"   // progress
	KindPromptness = "promptness" // loss-signal
)

// ClaimKind is the kind of a claim as results name it: progress is
// liveness, loss-signal promptness, every other claim safety.
func ClaimKind(claim string) string {
	switch claim {
	case string(pattern.ClaimProgress):
		return KindLiveness
	case ClaimLossSignal:
		return KindPromptness
	}
	return KindSafety
}

// ClaimFindings returns the findings of every claim the oracles judge, in
// a fixed order, each marked claimed or not.
func (r *Result) ClaimFindings() []ClaimFinding {
	claimed := map[string]bool{}
	for _, c := range r.Claims {
		claimed[c] = true
	}
	out := []ClaimFinding{
		{Claim: string(pattern.ClaimMutex), Count: r.Safety.Overlaps, What: "overlaps", Kind: string(pattern.FindingOverlap)},
		{Claim: string(pattern.ClaimSafeStore), Count: r.Safety.LostUpdates, What: "lost updates", Kind: string(pattern.FindingLostUpdate)},
		{Claim: string(pattern.ClaimFencing), Count: r.Safety.FenceViolations, What: "fence violations", Kind: string(pattern.FindingFence)},
		{Claim: string(pattern.ClaimMaxHolders), Count: r.Safety.Excess, What: "sections past the holder limit", Kind: string(pattern.FindingHolders)},
		{Claim: string(pattern.ClaimProgress), Count: r.Liveness.Stalls, What: "stalls", Kind: string(pattern.FindingStall)},
		{Claim: ClaimLossSignal, Count: r.LossSignal.Late, What: "late loss signals", Kind: string(pattern.FindingLateSignal)},
	}
	for i := range out {
		out[i].Claimed = claimed[out[i].Claim]
	}
	return out
}

// ClaimViolations counts the run's findings of the claims its pattern
// makes: what the verdict judges, and what the rates count. A run that
// broke no claim counts none.
func (r *Result) ClaimViolations() int {
	n := 0
	for _, f := range r.ClaimFindings() {
		if f.Claimed {
			n += f.Count
		}
	}
	return n
}

// Unclaimed returns the findings, other than none, of the claims the
// pattern does not make: not violations of this pattern.
func (r *Result) Unclaimed() []ClaimFinding {
	var out []ClaimFinding
	for _, f := range r.ClaimFindings() {
		if !f.Claimed && f.Count > 0 {
			out = append(out, f)
		}
	}
	return out
}

// RatePerSimHour is the run's claim violations (ClaimViolations) per hour
// of simulated time, the rate a team compares with its own tolerance
// under a fault schedule (0 when no time was simulated).
func (r *Result) RatePerSimHour() float64 { return PerSimHour(r.ClaimViolations(), r.Stats.SimTime) }

// RatePerMillionAcquisitions is the run's claim violations per million
// successful acquisitions (0 when there were none).
func (r *Result) RatePerMillionAcquisitions() float64 {
	return PerMillionAcquisitions(r.ClaimViolations(), r.Liveness.Acquisitions)
}

// PerSimHour is n per hour of simulated time d (0 when d is not positive).
func PerSimHour[N int | int64](n N, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / (float64(d) / float64(time.Hour))
}

// PerMillionAcquisitions is n per million acquisitions (0 when there were
// none).
func PerMillionAcquisitions[N int | int64](n, acquisitions N) float64 {
	if acquisitions <= 0 {
		return 0
	}
	return float64(n) * 1e6 / float64(acquisitions)
}

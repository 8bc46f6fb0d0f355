package sim

import (
	"testing"
	"time"
)

// TestClaimViolations: only the findings of the claims the pattern makes
// count, each by its own oracle's count; the others are Unclaimed, and the
// rates count the claimed ones only.
func TestClaimViolations(t *testing.T) {
	r := &Result{
		Safety:     Safety{Overlaps: 2, LostUpdates: 5, FenceViolations: 7, Excess: 11},
		Liveness:   Liveness{Stalls: 13, Acquisitions: 1000},
		LossSignal: LossSignal{Late: 17},
		Stats:      Stats{SimTime: time.Hour, Violations: 99},
	}
	for _, c := range []struct {
		claims    []string
		want      int
		unclaimed int
	}{
		{nil, 0, 55},
		{[]string{"mutex"}, 2, 53},
		{[]string{"mutex", "progress"}, 15, 40},
		{[]string{"safe-store", "fencing"}, 12, 43},
		{[]string{"safe-store", "fencing", "progress", "loss-signal"}, 42, 13},
		{[]string{"max-holders"}, 11, 44},
		{[]string{"mutex", "progress", "loss-signal"}, 32, 23},
	} {
		r.Claims = c.claims
		if got := r.ClaimViolations(); got != c.want {
			t.Errorf("ClaimViolations(claims %v) = %d, want %d", c.claims, got, c.want)
		}
		n := 0
		for _, f := range r.Unclaimed() {
			n += f.Count
		}
		if n != c.unclaimed {
			t.Errorf("Unclaimed(claims %v) sums to %d, want %d", c.claims, n, c.unclaimed)
		}
		if got := r.RatePerSimHour(); got != float64(c.want) {
			t.Errorf("RatePerSimHour(claims %v) = %v, want %d (the claimed findings of an hour, not all %d)", c.claims, got, c.want, r.Stats.Violations)
		}
		if got := r.RatePerMillionAcquisitions(); got != float64(c.want)*1000 {
			t.Errorf("RatePerMillionAcquisitions(claims %v) = %v, want %d", c.claims, got, c.want*1000)
		}
	}
}

package bench

import (
	"math"
	"testing"
	"time"
)

func TestMedianInterval(t *testing.T) {
	seq := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(n - i) // reversed: the interval must sort
		}
		return xs
	}
	for _, tc := range []struct {
		n             int
		lo, hi, level float64
	}{
		{1, 1, 1, 0},
		{3, 1, 3, 0.75},
		{5, 1, 5, 0.9375},
		{6, 1, 6, 0.96875},
		{10, 2, 9, 1 - 2*11.0/1024}, // k=2: 1 − 2·(C(10,0)+C(10,1))/2¹⁰
		{20, 6, 15, 1 - 2*(1+20+190+1140+4845+15504)/1048576.0}, // k=6, as benchstat gives
	} {
		iv := MedianInterval(seq(tc.n))
		if iv.Lo != tc.lo || iv.Hi != tc.hi || math.Abs(iv.Level-tc.level) > 1e-9 {
			t.Errorf("MedianInterval(1..%d) = %+v, want [%v, %v] at %.4f", tc.n, iv, tc.lo, tc.hi, tc.level)
		}
		if iv.Level >= ConfidenceLevel && coverage(tc.n, int(tc.lo)+1) >= ConfidenceLevel {
			t.Errorf("n=%d: a narrower interval still covers %.2f", tc.n, ConfidenceLevel)
		}
	}
	if iv := MedianInterval(nil); iv != (Interval{}) {
		t.Errorf("MedianInterval(nil) = %+v, want zero", iv)
	}
}

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		iv   Interval
		want string
	}{
		{Interval{Median: 0.97, Lo: 0.95, Hi: 0.99}, Met},
		{Interval{Median: 0.96, Lo: 0.93, Hi: 0.99}, WithinNoise},
		{Interval{Median: 0.90, Lo: 0.88, Hi: 0.949}, Missed},
	} {
		if got := tc.iv.Verdict(0.95); got != tc.want {
			t.Errorf("%v.Verdict(0.95) = %s, want %s", tc.iv, got, tc.want)
		}
	}
}

// TestGoalsFromIntervals: a median above the goal whose interval reaches
// below it is within noise, not met; one whose interval lies wholly below
// it is missed.
func TestGoalsFromIntervals(t *testing.T) {
	for _, tc := range []struct {
		ratios []float64 // basic/floor per repetition
		want   string
	}{
		{[]float64{0.96, 0.97, 0.99}, Met},
		{[]float64{0.93, 0.96, 0.99}, WithinNoise}, // median 0.96 ≥ 0.95: "met" by the median alone
		{[]float64{0.90, 0.91, 0.94}, Missed},
	} {
		res := &Result{Config: Settings{Clients: []int{1}, Keys: []KeyMode{Distinct}, Reps: len(tc.ratios)}}
		for rep, r := range tc.ratios {
			res.Samples = append(res.Samples,
				fakeSample("floor", KindFloor, singleCell(1, Distinct), rep, 1000, time.Millisecond),
				fakeSample("basic", KindPattern, singleCell(1, Distinct), rep, 1000*r, time.Millisecond))
		}
		g := goalStatus(t, Goals(res), "basic acquire+release ≥ 95%")
		if g.Status != tc.want {
			t.Errorf("ratios %v: %s (%s), want %s", tc.ratios, g.Status, g.Measured, tc.want)
		}
	}
}

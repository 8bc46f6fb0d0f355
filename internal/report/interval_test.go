package report

import (
	"math"
	"testing"
)

func TestWilson(t *testing.T) {
	// Reference values: the Wilson score interval at z = 1.959964,
	// computed by hand from its closed form.
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 20, 0, 0.1611},
		{5, 20, 0.1119, 0.4687},
		{20, 20, 0.8389, 1},
		{0, 2, 0, 0.6576},
		{1, 2, 0.0945, 0.9055},
		{10, 20, 0.2993, 0.7007},
		{28, 200, 0.0987, 0.1949},
	} {
		iv := Wilson(tc.k, tc.n)
		if math.Abs(iv.Lo-tc.lo) > 5e-4 || math.Abs(iv.Hi-tc.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tc.k, tc.n, iv.Lo, iv.Hi, tc.lo, tc.hi)
		}
		if p := float64(tc.k) / float64(tc.n); p < iv.Lo || p > iv.Hi {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f] does not contain %.4f", tc.k, tc.n, iv.Lo, iv.Hi, p)
		}
	}
	if iv := Wilson(0, 0); iv.Lo != 0 || iv.Hi != 1 {
		t.Errorf("Wilson(0, 0) = %+v, want [0, 1]: no seeds say nothing", iv)
	}
}

func TestRateText(t *testing.T) {
	for _, tc := range []struct {
		k, n int
		want string
	}{
		{5, 20, "5/20 (25%, 11–47%)"},
		{0, 20, "0/20 (0%, 0–16%)"},
		{20, 20, "20/20 (100%, 84–100%)"},
		{0, 2, "0/2 (0%, 0–66%)"},
		{1, 200, "1/200 (0.5%, 0.1–2.8%)"},
	} {
		if got := RateText(tc.k, tc.n); got != tc.want {
			t.Errorf("RateText(%d, %d) = %q, want %q", tc.k, tc.n, got, tc.want)
		}
	}
}

func TestSeparated(t *testing.T) {
	for _, tc := range []struct {
		a, b [2]int
		want bool
	}{
		{[2]int{0, 20}, [2]int{18, 20}, true},
		{[2]int{0, 20}, [2]int{4, 20}, false}, // 0–16% and 8–42% overlap
		{[2]int{0, 2}, [2]int{2, 2}, false},   // two seeds separate nothing
		{[2]int{28, 200}, [2]int{103, 200}, true},
		{[2]int{65, 200}, [2]int{71, 200}, false},
	} {
		a, b := Wilson(tc.a[0], tc.a[1]), Wilson(tc.b[0], tc.b[1])
		if got := a.Separated(b); got != tc.want {
			t.Errorf("%v vs %v separated = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := b.Separated(a); got != tc.want {
			t.Errorf("separation is not symmetric for %v, %v", tc.a, tc.b)
		}
	}
}

func TestTooFewSeeds(t *testing.T) {
	// At CareRate 10%, a clean cell needs 29 seeds to see a violation with
	// 95% probability: 0.9^28 = 0.052, 0.9^29 = 0.047.
	for _, tc := range []struct {
		k, n int
		want bool
	}{
		{0, 2, true}, {0, 20, true}, {0, 28, true}, {0, 29, false}, {0, 200, false},
		{1, 2, false}, // a seen violation is evidence at any count
	} {
		if got := TooFewSeeds(tc.k, tc.n, CareRate); got != tc.want {
			t.Errorf("TooFewSeeds(%d, %d, %v) = %v, want %v", tc.k, tc.n, CareRate, got, tc.want)
		}
	}
	if got := SeedsToSee(CareRate); got != 29 {
		t.Errorf("SeedsToSee(%v) = %d, want 29", CareRate, got)
	}
}

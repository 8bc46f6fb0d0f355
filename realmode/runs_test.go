package realmode

import (
	"math"
	"testing"
)

// TestWilson: the interval against values computed by hand.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n           int
		p, lo, hi, eps float64
	}{
		{0, 10, 0, 0, 0.2775, 1e-4},
		{10, 10, 1, 0.7225, 1, 1e-4},
		{5, 10, 0.5, 0.2366, 0.7634, 1e-4},
		{0, 0, 0, 0, 1, 0},
	} {
		p, lo, hi := Wilson(c.k, c.n)
		if math.Abs(p-c.p) > c.eps || math.Abs(lo-c.lo) > c.eps || math.Abs(hi-c.hi) > c.eps {
			t.Errorf("Wilson(%d, %d) = %.4f [%.4f, %.4f], want %.4f [%.4f, %.4f]", c.k, c.n, p, lo, hi, c.p, c.lo, c.hi)
		}
	}
}

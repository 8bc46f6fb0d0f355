package advise

import (
	"math"
	"strconv"
	"strings"
)

// The 95% Wilson score interval, as the report computes it
// (internal/report/interval.go): a rate of k failing seeds in n carries
// it, and a clean cell of fewer than seedsToSee seeds cannot rule out
// careRate.

const z95 = 1.959963984540054

// careRate is the rate below which a clean cell must be able to see.
const careRate = 0.10

func wilson(k, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	d := 1 + z2/nf
	centre := (p + z2/(2*nf)) / d
	half := z95 / d * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = math.Max(0, centre-half), math.Min(1, centre+half)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// seedsToSee is the fewest seeds that show a violation of rate p at least
// once with 95% probability.
func seedsToSee(p float64) int { return int(math.Ceil(math.Log(0.05) / math.Log(1-p))) }

// pct formats a proportion as the report does: whole percent from 10%,
// one decimal below, no trailing ".0".
func pct(p float64) string {
	v := 100 * p
	var s string
	if v >= 9.95 {
		s = strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	} else {
		s = strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strings.TrimSuffix(s, ".0")
}

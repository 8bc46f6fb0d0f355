package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Rates over seeds are estimates: 5 violating seeds of 20 is compatible
// with a true rate anywhere from about 11% to 47%. Every rate the report
// prints carries its 95% Wilson score interval, a comparison is called a
// difference only when the two intervals do not overlap, and a clean cell
// with too few seeds to have seen a violation at CareRate is marked as such.

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// CareRate is the violation rate the report cares about: a lock that
// breaks in one run of ten under a fault a team fears is one it must know
// about. A clean cell is evidence against that rate only with SeedsToSee
// seeds or more.
const CareRate = 0.10

// Interval is a confidence interval of a proportion, in [0, 1].
type Interval struct{ Lo, Hi float64 }

// Wilson returns the 95% Wilson score interval of k successes in n trials
// ([0, 1] when n is 0: no trial says nothing). Unlike the normal
// approximation it stays inside [0, 1] and is not empty at k = 0 or k = n.
func Wilson(k, n int) Interval {
	if n <= 0 {
		return Interval{0, 1}
	}
	p, nf, z2 := float64(k)/float64(n), float64(n), z95*z95
	d := 1 + z2/nf
	centre := (p + z2/(2*nf)) / d
	half := z95 / d * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	iv := Interval{Lo: math.Max(0, centre-half), Hi: math.Min(1, centre+half)}
	if k == 0 {
		iv.Lo = 0
	}
	if k == n {
		iv.Hi = 1
	}
	return iv
}

// Separated reports whether the intervals do not overlap: only then does
// the report call one rate lower than the other.
func (a Interval) Separated(b Interval) bool { return a.Hi < b.Lo || b.Hi < a.Lo }

// Below reports whether a lies wholly below b.
func (a Interval) Below(b Interval) bool { return a.Hi < b.Lo }

// SeedsToSee is the fewest seeds in which a violation of rate p shows at
// least once with 95% probability: the smallest n with (1-p)^n ≤ 0.05.
func SeedsToSee(p float64) int {
	if p <= 0 || p >= 1 {
		return 1
	}
	return int(math.Ceil(math.Log(0.05) / math.Log(1-p)))
}

// TooFewSeeds reports whether a cell of k violating seeds out of n is too
// small to say anything at rate p: none seen, in fewer seeds than it takes
// to see one at that rate with 95% probability.
func TooFewSeeds(k, n int, p float64) bool { return k == 0 && n < SeedsToSee(p) }

// RateText formats k of n with the rate and its interval:
// "5/20 (25%, 11–47%)".
func RateText(k, n int) string {
	if n == 0 {
		return "0/0 (no seeds)"
	}
	iv := Wilson(k, n)
	return fmt.Sprintf("%d/%d (%s%%, %s–%s%%)", k, n, pct(float64(k)/float64(n)), pct(iv.Lo), pct(iv.Hi))
}

// IntervalText formats an interval alone: "11–47%".
func IntervalText(iv Interval) string { return pct(iv.Lo) + "–" + pct(iv.Hi) + "%" }

// pct formats a proportion as a percentage: whole numbers from 10%, one
// decimal below (0.5, 2.8), no trailing ".0".
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

// FewMark follows a clean rate measured over too few seeds.
const FewMark = " †"

// rateMark is RateText, marked with FewMark when the seeds are too few to
// have seen a violation at CareRate.
func rateMark(k, n int) string {
	if TooFewSeeds(k, n, CareRate) {
		return RateText(k, n) + FewMark
	}
	return RateText(k, n)
}

// intervalNote explains the figures of a rate cell.
func intervalNote() string {
	return fmt.Sprintf("A rate reads violating/seeds (the rate, then its 95%% Wilson interval); %s marks a clean cell of fewer than %d seeds, too few to have seen a violation of rate %s%% with 95%% probability: it does not rule that rate out.",
		strings.TrimSpace(FewMark), SeedsToSee(CareRate), pct(CareRate))
}

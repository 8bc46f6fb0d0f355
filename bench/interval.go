package bench

import (
	"fmt"
	"math"
	"slices"
)

// Interval is a confidence interval for the median of a few repetitions,
// by benchstat's method: distribution-free, from order statistics. With n
// values sorted, [x(k), x(n+1-k)] covers the true median with probability
// 1 − 2·P(Binomial(n, ½) < k); k is the largest index that keeps that
// coverage at or above the level asked for. When even [min, max] falls short
// (fewer than 6 repetitions for 95%), the interval is [min, max] and Level
// says what it does cover: 75% for 3 repetitions, 87.5% for 4, 93.75% for 5.
type Interval struct {
	Median float64 `json:"median"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	// Level is the interval's confidence (0.95 when reached; less with
	// too few repetitions; 0 for one value or none).
	Level float64 `json:"level"`
}

// ConfidenceLevel is the level the intervals aim for.
const ConfidenceLevel = 0.95

// MedianInterval returns the median of xs and its confidence interval at
// ConfidenceLevel (or the best xs allows).
func MedianInterval(xs []float64) Interval {
	return medianIntervalAt(xs, ConfidenceLevel)
}

func medianIntervalAt(xs []float64, level float64) Interval {
	n := len(xs)
	if n == 0 {
		return Interval{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	iv := Interval{Median: median(s), Lo: s[0], Hi: s[n-1], Level: coverage(n, 1)}
	if n == 1 {
		iv.Level = 0
		return iv
	}
	for k := 2; k <= n/2; k++ {
		c := coverage(n, k)
		if c < level {
			break
		}
		iv.Lo, iv.Hi, iv.Level = s[k-1], s[n-k], c
	}
	return iv
}

// coverage is the probability that [x(k), x(n+1-k)] holds the median of
// the distribution n values were drawn from: 1 − 2·P(Binomial(n, ½) ≤ k−1).
func coverage(n, k int) float64 {
	tail := 0.0
	for i := 0; i < k; i++ {
		tail += math.Exp(lchoose(n, i) - float64(n)*math.Ln2)
	}
	return math.Max(0, 1-2*tail)
}

func lchoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

// Verdict compares an interval with a goal's threshold (the measured value
// must be at least min): met when the whole interval is at or above it,
// missed when the whole interval is below, within noise when it straddles.
func (iv Interval) Verdict(min float64) string {
	switch {
	case iv.Lo >= min:
		return Met
	case iv.Hi < min:
		return Missed
	}
	return WithinNoise
}

// String renders the median and the interval: "0.97 [0.93, 1.01]".
func (iv Interval) String() string {
	if iv.Lo == iv.Hi {
		return fmt.Sprintf("%.2f", iv.Median)
	}
	return fmt.Sprintf("%.2f [%.2f, %.2f]", iv.Median, iv.Lo, iv.Hi)
}

// worst combines per-cell verdicts: missed if any is, else within noise
// if any is, else met.
func worst(vs []string) string {
	switch {
	case slices.Contains(vs, Missed):
		return Missed
	case slices.Contains(vs, WithinNoise):
		return WithinNoise
	}
	return Met
}

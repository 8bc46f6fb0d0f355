package bench

import (
	"math"
	"math/bits"
	"time"
)

// subBits is the number of mantissa bits a Histogram keeps: every power-of-
// two range [2^e, 2^(e+1)) is split into 2^subBits equal buckets, so a
// recorded value is known to within 1/2^subBits (0.8%) of itself. Values
// below 2^(subBits+1) are kept exactly.
const subBits = 7

const (
	subCount = 1 << subBits       // buckets per power of two
	exactMax = 1 << (subBits + 1) // values below this have a bucket each
)

// Histogram is a log-bucketed latency histogram in the manner of
// HdrHistogram: constant relative precision (better than 1%) over the whole
// int64 range, memory that grows only with the largest value recorded, and
// exact counts, so a percentile read from it is within one bucket's width of
// the true order statistic. The zero value is ready to use; it is not safe
// for concurrent use (give each client its own and Merge them).
type Histogram struct {
	counts   []uint64
	n        uint64
	sum      float64
	min, max int64
}

// bucketOf returns the index of the bucket holding v (v ≥ 0).
func bucketOf(v int64) int {
	u := uint64(v)
	if u < exactMax {
		return int(u)
	}
	shift := bits.Len64(u) - (subBits + 1)
	return shift*subCount + int(u>>shift)
}

// bucketRange returns the smallest and largest values bucket i holds.
func bucketRange(i int) (lo, hi int64) {
	if i < exactMax {
		return int64(i), int64(i)
	}
	shift := i/subCount - 1
	mant := uint64(i - shift*subCount)
	lo64 := mant << shift
	return int64(lo64), int64(lo64 + (1 << shift) - 1)
}

// Record adds one value; negative values count as 0.
func (h *Histogram) Record(v int64) {
	v = max(v, 0)
	i := bucketOf(v)
	if i >= len(h.counts) {
		grown := make([]uint64, i+1+subCount)
		copy(grown, h.counts)
		h.counts = grown
	}
	h.counts[i]++
	if h.n == 0 || v < h.min {
		h.min = v
	}
	if v > h.max {
		h.max = v
	}
	h.n++
	h.sum += float64(v)
}

// RecordDuration records d in nanoseconds.
func (h *Histogram) RecordDuration(d time.Duration) { h.Record(int64(d)) }

// Merge adds every value recorded in o.
func (h *Histogram) Merge(o *Histogram) {
	if o == nil || o.n == 0 {
		return
	}
	if len(o.counts) > len(h.counts) {
		grown := make([]uint64, len(o.counts))
		copy(grown, h.counts)
		h.counts = grown
	}
	for i, c := range o.counts {
		h.counts[i] += c
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
}

// Count is the number of values recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Min is the smallest value recorded (0 when empty).
func (h *Histogram) Min() int64 { return h.min }

// Max is the largest value recorded (0 when empty).
func (h *Histogram) Max() int64 { return h.max }

// Mean is the arithmetic mean of the values recorded (0 when empty).
func (h *Histogram) Mean() float64 {
	if h.n == 0 {
		return 0
	}
	return h.sum / float64(h.n)
}

// Quantile returns the value at quantile q in [0, 1]: the largest value of
// the bucket holding the ceil(q·n)-th smallest recorded value, capped by the
// recorded maximum. Quantile(0) is the minimum, Quantile(1) the maximum; an
// empty histogram returns 0.
func (h *Histogram) Quantile(q float64) int64 {
	if h.n == 0 {
		return 0
	}
	if q <= 0 || math.IsNaN(q) {
		return h.min
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = min(max(rank, 1), h.n)
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			_, hi := bucketRange(i)
			return max(min(hi, h.max), h.min)
		}
	}
	return h.max
}

// QuantileDuration is Quantile as a time.Duration (values in nanoseconds).
func (h *Histogram) QuantileDuration(q float64) time.Duration {
	return time.Duration(h.Quantile(q))
}

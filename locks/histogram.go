package locks

import (
	"sync/atomic"
	"time"
)

// WaitBuckets are the upper bounds of Histogram's buckets; a last, implicit
// bucket holds everything longer.
var WaitBuckets = []time.Duration{
	time.Millisecond, 2 * time.Millisecond, 5 * time.Millisecond,
	10 * time.Millisecond, 25 * time.Millisecond, 50 * time.Millisecond,
	100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
	time.Second, 2500 * time.Millisecond, 5 * time.Second, 10 * time.Second,
}

// Histogram counts durations into WaitBuckets. The zero value is ready and
// safe for concurrent use; Metrics.Waits is one.
type Histogram struct {
	counts [14]atomic.Int64 // len(WaitBuckets) + 1
	sum    atomic.Int64     // nanoseconds
}

// Observe records one duration (negative ones count as zero).
func (h *Histogram) Observe(d time.Duration) {
	d = max(d, 0)
	i := 0
	for i < len(WaitBuckets) && d > WaitBuckets[i] {
		i++
	}
	h.counts[i].Add(1)
	h.sum.Add(int64(d))
}

// HistogramSnapshot is a plain copy of a Histogram.
type HistogramSnapshot struct {
	// Bounds are the buckets' upper bounds (WaitBuckets).
	Bounds []time.Duration
	// Counts[i] counts observations in (Bounds[i-1], Bounds[i]];
	// Counts[len(Bounds)] those above the last bound.
	Counts []int64
	// Count is the number of observations; Sum their total.
	Count int64
	Sum   time.Duration
}

// Snapshot copies the histogram.
func (h *Histogram) Snapshot() HistogramSnapshot {
	s := HistogramSnapshot{Bounds: WaitBuckets, Counts: make([]int64, len(h.counts))}
	for i := range h.counts {
		s.Counts[i] = h.counts[i].Load()
		s.Count += s.Counts[i]
	}
	s.Sum = time.Duration(h.sum.Load())
	return s
}

// Cumulative returns, for each bound, the number of observations at or
// below it (the form Prometheus histograms use).
func (s HistogramSnapshot) Cumulative() []int64 {
	out := make([]int64, len(s.Bounds))
	var acc int64
	for i := range s.Bounds {
		acc += s.Counts[i]
		out[i] = acc
	}
	return out
}

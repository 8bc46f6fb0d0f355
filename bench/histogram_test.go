package bench

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// exactQuantile is the ceil(q·n)-th smallest value of sorted.
func exactQuantile(sorted []int64, q float64) int64 {
	rank := int(math.Ceil(q * float64(len(sorted))))
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

func TestBucketsCoverEveryValueOnce(t *testing.T) {
	// Consecutive buckets must tile the line: each starts one past the
	// previous one's end, and every value maps back to the bucket that
	// claims it.
	prevHi := int64(-1)
	for i := 0; i < 40*subCount; i++ {
		lo, hi := bucketRange(i)
		if lo != prevHi+1 {
			t.Fatalf("bucket %d starts at %d, want %d", i, lo, prevHi+1)
		}
		if hi < lo {
			t.Fatalf("bucket %d = [%d, %d]", i, lo, hi)
		}
		for _, v := range []int64{lo, hi, lo + (hi-lo)/2} {
			if got := bucketOf(v); got != i {
				t.Fatalf("bucketOf(%d) = %d, want %d", v, got, i)
			}
		}
		prevHi = hi
	}
	if i := bucketOf(math.MaxInt64); i < 0 {
		t.Fatalf("bucketOf(MaxInt64) = %d", i)
	}
}

func TestQuantilesMatchSortedData(t *testing.T) {
	dists := map[string]func(r *rand.Rand) int64{
		"small exact":  func(r *rand.Rand) int64 { return r.Int64N(200) },
		"uniform µs":   func(r *rand.Rand) int64 { return 50_000 + r.Int64N(2_000_000) },
		"log-normal":   func(r *rand.Rand) int64 { return int64(math.Exp(11 + 1.5*r.NormFloat64())) },
		"heavy tail":   func(r *rand.Rand) int64 { return int64(1e5 / math.Pow(1-r.Float64(), 1.5)) },
		"single value": func(*rand.Rand) int64 { return 123_456_789 },
	}
	for name, gen := range dists {
		t.Run(name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, 11))
			var h Histogram
			vals := make([]int64, 20_000)
			for i := range vals {
				vals[i] = gen(r)
				h.Record(vals[i])
			}
			slices.Sort(vals)
			for _, q := range []float64{0, 0.001, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 1} {
				want := exactQuantile(vals, q)
				got := h.Quantile(q)
				// The answer is the top of want's bucket: never below
				// want, and above it by less than one bucket width.
				tol := want / subCount
				if got < want || got > want+tol {
					t.Errorf("Quantile(%v) = %d, want %d (+%d)", q, got, want, tol)
				}
			}
			if h.Count() != uint64(len(vals)) || h.Min() != vals[0] || h.Max() != vals[len(vals)-1] {
				t.Errorf("count/min/max = %d/%d/%d, want %d/%d/%d",
					h.Count(), h.Min(), h.Max(), len(vals), vals[0], vals[len(vals)-1])
			}
		})
	}
}

func TestQuantileSmallCounts(t *testing.T) {
	var h Histogram
	if got := h.Quantile(0.5); got != 0 {
		t.Fatalf("empty Quantile(0.5) = %d, want 0", got)
	}
	for _, v := range []int64{10, 20, 30, 40} {
		h.Record(v)
	}
	for q, want := range map[float64]int64{0.25: 10, 0.5: 20, 0.51: 30, 0.75: 30, 0.99: 40, 1: 40} {
		if got := h.Quantile(q); got != want {
			t.Errorf("Quantile(%v) = %d, want %d", q, got, want)
		}
	}
	if got := h.Mean(); got != 25 {
		t.Errorf("Mean() = %v, want 25", got)
	}
	h.Record(-5)
	if h.Min() != 0 {
		t.Errorf("negative value recorded as %d, want 0", h.Min())
	}
}

func TestMergeEqualsRecordingEverything(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	var all, a, b Histogram
	for i := range 5000 {
		v := r.Int64N(1 << 30)
		all.Record(v)
		if i%3 == 0 {
			a.Record(v)
		} else {
			b.Record(v)
		}
	}
	var m Histogram
	m.Merge(&a)
	m.Merge(&b)
	m.Merge(nil)
	m.Merge(&Histogram{})
	for _, q := range []float64{0, 0.5, 0.99, 0.999, 1} {
		if got, want := m.Quantile(q), all.Quantile(q); got != want {
			t.Errorf("merged Quantile(%v) = %d, want %d", q, got, want)
		}
	}
	if m.Count() != all.Count() || m.Min() != all.Min() || m.Max() != all.Max() || m.Mean() != all.Mean() {
		t.Errorf("merged stats differ: %+v vs %+v", m, all)
	}
}

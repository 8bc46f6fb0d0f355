package locks

import (
	"context"
	"testing"
	"time"
)

func TestHistogramBuckets(t *testing.T) {
	var h Histogram
	if got, want := len(h.counts), len(WaitBuckets)+1; got != want {
		t.Fatalf("Histogram has %d buckets, want len(WaitBuckets)+1 = %d", got, want)
	}
	for _, d := range []time.Duration{-time.Second, 0, time.Millisecond, 3 * time.Millisecond, time.Second, time.Minute} {
		h.Observe(d)
	}
	s := h.Snapshot()
	want := map[int]int64{0: 3, 2: 1, 9: 1, len(WaitBuckets): 1} // ≤1ms: -1s, 0, 1ms; ≤5ms; ≤1s; +Inf
	for i, c := range s.Counts {
		if c != want[i] {
			t.Errorf("Counts[%d] = %d, want %d (counts %v)", i, c, want[i], s.Counts)
		}
	}
	if s.Count != 6 || s.Sum != time.Minute+time.Second+4*time.Millisecond {
		t.Errorf("Count, Sum = %d, %v; want 6, 1m1.004s", s.Count, s.Sum)
	}
	cum := s.Cumulative()
	if cum[0] != 3 || cum[len(cum)-1] != 5 {
		t.Errorf("Cumulative() = %v, want 3 first and 5 last (the +Inf one excluded)", cum)
	}
}

// TestNilMetrics: every pattern that counts into Metrics accepts none.
func TestNilMetrics(t *testing.T) {
	e := extMini(t)
	ctx := context.Background()
	o := Options{TTL: time.Second}
	svc, err := NewService(e.client(t), "svc", o)
	if err != nil {
		t.Fatal(err)
	}
	fair := newFairT(t, e.client(t), "fair", o)
	sem, err := NewSemaphore(e.client(t), "sem", 1, o)
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]Locker{"service": svc, "fair": fair, "semaphore": sem} {
		lease, err := l.Acquire(ctx)
		if err != nil {
			t.Fatalf("%s: Acquire = %v", name, err)
		}
		if err := l.Release(ctx, lease); err != nil {
			t.Fatalf("%s: Release = %v", name, err)
		}
	}
}

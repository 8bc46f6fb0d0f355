package locks

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
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

// countHook counts the commands a client sends.
type countHook struct{ n atomic.Int64 }

func (h *countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error { h.n.Add(1); return next(ctx, cmd) }
}
func (h *countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error { h.n.Add(int64(len(cmds))); return next(ctx, cmds) }
}

// TestReleaseAfterRunOutCountsOneLoss: a lease whose validity ran out (and
// whose key expired) is released once: the server answers that it held
// nothing, which counts one loss. A second Release of it is a duplicate:
// refused with ErrNotHeld before anything is sent, and no second loss.
func TestReleaseAfterRunOutCountsOneLoss(t *testing.T) {
	lockers := []struct {
		name string
		new  func(r Redis, name string, o Options) (Locker, error)
	}{
		{"Basic", func(r Redis, n string, o Options) (Locker, error) { return NewBasic(r, n, o) }},
		{"Semaphore", func(r Redis, n string, o Options) (Locker, error) { return NewSemaphore(r, n, 2, o) }},
		{"Fair", func(r Redis, n string, o Options) (Locker, error) { return NewFair(r, n, o) }},
	}
	extBoth(t, func(t *testing.T, e *extEnv) {
		for _, lk := range lockers {
			t.Run(lk.name, func(t *testing.T) {
				ctx, c, hook := context.Background(), e.client(t), &countHook{}
				c.AddHook(hook)
				ms := &Metrics{}
				o := Options{TTL: 50 * time.Millisecond, Metrics: ms, Retry: Retry{Attempts: 1}}
				l, err := lk.new(c, extName(t), o)
				if err != nil {
					t.Fatal(err)
				}
				lease, err := l.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire = %v", err)
				}
				time.Sleep(2 * o.TTL) // real time: the lease's validity runs out on its clock
				if e.mr != nil {
					e.mr.FastForward(2 * o.TTL)
				}
				if err := l.Release(ctx, lease); !errors.Is(err, ErrNotHeld) {
					t.Fatalf("Release after the TTL = %v, want ErrNotHeld", err)
				}
				sent := hook.n.Load()
				if err := l.Release(ctx, lease); !errors.Is(err, ErrNotHeld) {
					t.Errorf("second Release = %v, want ErrNotHeld", err)
				}
				if n := hook.n.Load() - sent; n != 0 {
					t.Errorf("second Release sent %d commands, want none", n)
				}
				if got := ms.Snapshot().Lost; got != 1 {
					t.Errorf("Lost = %d after two Releases of one expired lease, want 1", got)
				}
			})
		}
	})
}

package locks

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/lockbridge"
)

func newSemT(t *testing.T, r Redis, name string, n int, o Options) *Semaphore {
	t.Helper()
	s, err := NewSemaphore(r, name, n, o)
	if err != nil {
		t.Fatalf("NewSemaphore(%q, %d) = %v", name, n, err)
	}
	return s
}

func TestSemaphoreOptions(t *testing.T) {
	r := extMini(t).client(t)
	tests := []struct {
		name  string
		key   string
		n     int
		o     Options
		field string
	}{
		{"zero permits", "k", 0, Options{TTL: time.Second}, "permits"},
		{"negative permits", "k", -2, Options{TTL: time.Second}, "permits"},
		{"empty name", "", 1, Options{TTL: time.Second}, "name"},
		{"no TTL", "k", 1, Options{}, "TTL"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSemaphore(r, tc.key, tc.n, tc.o)
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Field != tc.field {
				t.Fatalf("NewSemaphore(%q, %d) = %v, want an OptionError on %s", tc.key, tc.n, err, tc.field)
			}
		})
	}
}

// TestSemaphoreNPermits: N holders get in at once, the N+1-th does not.
func TestSemaphoreNPermits(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		const n = 3
		var leases []*Lease
		var holders []*Semaphore
		for i := range n {
			h := newSemT(t, e.client(t), name, n, o)
			holders = append(holders, h)
			l, err := h.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire %d of %d = %v", i+1, n, err)
			}
			leases = append(leases, l)
		}
		s := newSemT(t, e.client(t), name, n, o)
		if _, err := s.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Acquire %d of %d = %v, want ErrNotAcquired", n+1, n, err)
		}
		if got := len(extInspect(t, e.client(t), name, KindSemaphore).Holders); got != n {
			t.Errorf("Inspect: %d holders, want %d", got, n)
		}
		if err := s.Release(ctx, leases[1]); !errors.Is(err, ErrNotHeld) {
			t.Fatalf("Release by another client's Semaphore = %v, want ErrNotHeld", err)
		}
		if err := holders[1].Release(ctx, leases[1]); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if _, err := s.Acquire(ctx); err != nil {
			t.Errorf("Acquire after a release = %v", err)
		}
	})
}

// TestSemaphoreNeverMoreThanN: concurrent clients never exceed N holders.
func TestSemaphoreNeverMoreThanN(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		const n = 2
		var cur, peak atomic.Int64
		var wg sync.WaitGroup
		for range 6 {
			s := newSemT(t, e.client(t), name, n, extFastOpts())
			wg.Go(func() {
				for range 15 {
					l, err := s.Acquire(ctx)
					if err != nil {
						t.Errorf("Acquire = %v", err)
						return
					}
					c := cur.Add(1)
					for p := peak.Load(); c > p && !peak.CompareAndSwap(p, c); p = peak.Load() {
					}
					time.Sleep(time.Millisecond) // real time: hold while the other clients (real goroutines) try for it
					cur.Add(-1)
					if err := s.Release(ctx, l); err != nil {
						t.Errorf("Release = %v", err)
					}
				}
			})
		}
		wg.Wait()
		if p := peak.Load(); p > n {
			t.Errorf("peak holders = %d, want at most %d", p, n)
		}
	})
}

// TestSemaphoreCrashedPermitReturns: a holder that never releases gives its
// permit back when the permit's TTL runs out.
func TestSemaphoreCrashedPermitReturns(t *testing.T) {
	extTimeModes(t, func(t *testing.T, e *extEnv, clk *extClock) {
		ctx, name := context.Background(), extName(t)
		crashed := newSemT(t, e.client(t), name, 1, extStepOpts(clk, "a", 1))
		if _, err := crashed.Acquire(ctx); err != nil {
			t.Fatal(err)
		}
		s := newSemT(t, e.client(t), name, 1, extStepOpts(clk, "b", 1))
		if _, err := s.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Acquire while the permit is held = %v, want ErrNotAcquired", err)
		}
		clk.Advance(999 * time.Millisecond)
		if _, err := s.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Acquire 1ms before the TTL ends = %v, want ErrNotAcquired", err)
		}
		clk.Advance(time.Millisecond)
		if _, err := s.Acquire(ctx); err != nil {
			t.Fatalf("Acquire after the crashed holder's TTL = %v, want a grant", err)
		}
	})
}

// TestSemaphoreCrashedPermitRealRedis: the same in real time.
func TestSemaphoreCrashedPermitRealRedis(t *testing.T) {
	e := extReal(t)
	ctx, name := context.Background(), extName(t)
	o := extFastOpts()
	o.TTL = 200 * time.Millisecond
	if _, err := newSemT(t, e.client(t), name, 1, o).Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := newSemT(t, e.client(t), name, 1, o).Acquire(wctx); err != nil {
		t.Fatalf("Acquire behind a crashed holder = %v", err)
	}
	if waited := time.Since(begin); waited < o.TTL/2 {
		t.Errorf("granted after %v, before the crashed holder's permit (TTL %v) could expire", waited, o.TTL)
	}
}

// TestSemaphoreOwnedRelease: only a permit's own lease releases it; an
// expired permit cannot be released or extended.
func TestSemaphoreOwnedRelease(t *testing.T) {
	e := extMini(t)
	ctx, name := context.Background(), extName(t)
	clk := newExtClock(e.mr)
	s := newSemT(t, e.client(t), name, 2, extStepOpts(clk, "a", 1))
	l, _ := s.Acquire(ctx)
	permits, _ := SemaphoreKeys(name)
	forged, _ := newKitLease(lockbridge.LeaseSpec{Clock: clk, Key: permits, Token: "stranger", Fence: 0, Count: 1, Start: clk.Now(), Valid: time.Second})
	if err := s.Release(ctx, forged); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Release(forged) = %v, want ErrNotHeld", err)
	}
	if got := len(extInspect(t, e.client(t), name, KindSemaphore).Holders); got != 1 {
		t.Errorf("holders after a forged release = %d, want 1", got)
	}
	clk.Advance(800 * time.Millisecond)
	if err := s.Extend(ctx, l); err != nil {
		t.Fatalf("Extend = %v", err)
	}
	clk.Advance(800 * time.Millisecond)
	if err := s.Release(ctx, l); err != nil {
		t.Fatalf("Release of the extended permit = %v", err)
	}
	l2, _ := s.Acquire(ctx)
	clk.Advance(2 * time.Second)
	if err := s.Extend(ctx, l2); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Extend after expiry = %v, want ErrNotHeld", err)
	}
	if err := s.Release(ctx, l2); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Release after expiry = %v, want ErrNotHeld", err)
	}
}

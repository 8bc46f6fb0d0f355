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

// TestSemaphorePermitsAgree: a client built with another N than the
// semaphore's gets a *PermitsError at once (permanent: no retry, even with
// unbounded attempts) and never a permit; before, N was each client's own,
// and one built with N=15 took an 11th permit beside clients of N=10.
func TestSemaphorePermitsAgree(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		for i := range 10 {
			if _, err := newSemT(t, e.client(t), name, 10, o).Acquire(ctx); err != nil {
				t.Fatalf("Acquire %d of 10 = %v", i+1, err)
			}
		}
		ms := &Metrics{}
		o.Retry.Attempts, o.Metrics = -1, ms // unbounded: only a permanent error ends it
		big := newSemT(t, e.client(t), name, 15, o)
		wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		_, err := big.Acquire(wctx)
		var pe *PermitsError
		if !errors.As(err, &pe) || pe.Stored != 10 || pe.Permits != 15 || pe.Name != name {
			t.Fatalf("Acquire with N=15 beside N=10 = %v, want a PermitsError{%q, 15, 10}", err, name)
		}
		if !errors.Is(err, ErrPermitsMismatch) || !errors.Is(err, ErrPermanent) {
			t.Errorf("Acquire with N=15 = %v, want ErrPermitsMismatch and ErrPermanent", err)
		}
		if got := ms.Snapshot(); got.Attempts != 1 || got.Failed != 1 {
			t.Errorf("metrics of the disagreeing client = %+v, want 1 attempt, 1 failure (no retry)", got)
		}
		if got := len(extInspect(t, e.client(t), name, KindSemaphore).Holders); got != 10 {
			t.Errorf("Inspect: %d holders, want 10", got)
		}
		if _, err := newSemT(t, e.client(t), name, 5, o).AcquireN(wctx, 1); !errors.Is(err, ErrPermitsMismatch) {
			t.Errorf("AcquireN with N=5 = %v, want ErrPermitsMismatch", err)
		}
		if _, err := big.Available(ctx); !errors.Is(err, ErrPermitsMismatch) {
			t.Errorf("Available with N=15 = %v, want ErrPermitsMismatch", err)
		}
	})
}

// TestSemaphoreResize: Resize is a compare-and-set of the stored N from the
// client's own; the other clients of the old N are refused from then on;
// after a shrink the holdings stay and new grants wait until they fit.
func TestSemaphoreResize(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		a, old := newSemT(t, e.client(t), name, 2, o), newSemT(t, e.client(t), name, 2, o)
		var held []*Lease
		for range 2 {
			l, err := a.Acquire(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held = append(held, l)
		}
		stranger := newSemT(t, e.client(t), name, 3, o)
		if err := stranger.Resize(ctx, 4); !errors.Is(err, ErrPermitsMismatch) || stranger.Permits() != 3 {
			t.Fatalf("Resize(4) by a client of N=3 over N=2 = %v (Permits %d), want ErrPermitsMismatch and N kept", err, stranger.Permits())
		}
		var oe *OptionError
		if err := a.Resize(ctx, 0); !errors.As(err, &oe) {
			t.Errorf("Resize(0) = %v, want an OptionError", err)
		}
		if err := a.Resize(ctx, 3); err != nil || a.Permits() != 3 {
			t.Fatalf("Resize(3) = %v (Permits %d), want nil and 3", err, a.Permits())
		}
		l3, err := a.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire of a third permit after Resize(3) = %v", err)
		}
		held = append(held, l3)
		if _, err := old.Acquire(ctx); !errors.Is(err, ErrPermitsMismatch) {
			t.Errorf("Acquire by a client of the old N = %v, want ErrPermitsMismatch", err)
		}
		if _, err := stranger.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("Acquire by a client of N=3 with 3 held = %v, want ErrNotAcquired", err)
		}
		if err := a.Resize(ctx, 1); err != nil {
			t.Fatalf("Resize(1) = %v", err)
		}
		for i, l := range held {
			if _, err := a.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
				t.Fatalf("Acquire after a shrink to 1 with %d held = %v, want ErrNotAcquired", 3-i, err)
			}
			if err := a.Release(ctx, l); err != nil {
				t.Fatalf("Release of a permit held across the shrink = %v", err)
			}
		}
		if _, err := a.Acquire(ctx); err != nil {
			t.Errorf("Acquire after a shrink to 1, all released = %v", err)
		}
	})
}

// TestSemaphoreAcquireN: several permits are taken at once or not at all,
// released at once, and counted by Available; a count outside 1..N is
// refused before anything is sent.
func TestSemaphoreAcquireN(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		s, other := newSemT(t, e.client(t), name, 5, o), newSemT(t, e.client(t), name, 5, o)
		avail := func(want int) {
			t.Helper()
			if got, err := other.Available(ctx); err != nil || got != want {
				t.Errorf("Available() = %d, %v; want %d", got, err, want)
			}
		}
		avail(5)
		three, err := s.AcquireN(ctx, 3)
		if err != nil || three.Count != 3 {
			t.Fatalf("AcquireN(3) = %+v, %v; want a lease of Count 3", three, err)
		}
		avail(2)
		if _, err := other.AcquireN(ctx, 3); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("AcquireN(3) with 2 free = %v, want ErrNotAcquired", err)
		}
		avail(2) // the refused attempt took none
		if hs := extInspect(t, e.client(t), name, KindSemaphore).Holders; len(hs) != 1 || hs[0].Count != 3 {
			t.Errorf("Inspect after a refused AcquireN: holders %+v, want one of Count 3", hs)
		}
		two, err := other.AcquireN(ctx, 2)
		if err != nil {
			t.Fatalf("AcquireN(2) with 2 free = %v", err)
		}
		avail(0)
		if _, err := other.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("Acquire with none free = %v, want ErrNotAcquired", err)
		}
		if err := s.Release(ctx, three); err != nil {
			t.Fatalf("Release of 3 permits = %v", err)
		}
		avail(3)
		if err := s.Release(ctx, three); !errors.Is(err, ErrNotHeld) {
			t.Errorf("second Release of 3 permits = %v, want ErrNotHeld", err)
		}
		avail(3)
		if err := other.Extend(ctx, two); err != nil {
			t.Errorf("Extend of 2 permits = %v", err)
		}
		for _, k := range []int{0, -1, 6} {
			var oe *OptionError
			if _, err := s.AcquireN(ctx, k); !errors.As(err, &oe) {
				t.Errorf("AcquireN(%d) of N=5 = %v, want an OptionError", k, err)
			}
		}
		avail(3)
	})
}

// TestSemaphoreAcquireNExpiry: an expired multi-permit holding gives all
// its permits back, and Available counts it no more.
func TestSemaphoreAcquireNExpiry(t *testing.T) {
	extTimeModes(t, func(t *testing.T, e *extEnv, clk *extClock) {
		ctx, name := context.Background(), extName(t)
		s := newSemT(t, e.client(t), name, 4, extStepOpts(clk, "a", 1))
		if _, err := s.AcquireN(ctx, 3); err != nil {
			t.Fatal(err)
		}
		if _, err := s.AcquireN(ctx, 2); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("AcquireN(2) with 1 free = %v, want ErrNotAcquired", err)
		}
		clk.Advance(time.Second)
		if got, err := s.Available(ctx); err != nil || got != 4 {
			t.Errorf("Available() after the holding's TTL = %d, %v; want 4", got, err)
		}
		if _, err := s.AcquireN(ctx, 4); err != nil {
			t.Errorf("AcquireN(4) after the holding's TTL = %v", err)
		}
	})
}

// TestSemaphoreAcquireNNeverMoreThanN: clients taking 1, 2 or 3 permits
// at once never hold more than N together.
func TestSemaphoreAcquireNNeverMoreThanN(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		const n = 4
		var cur, peak atomic.Int64
		var wg sync.WaitGroup
		for i := range 6 {
			s, k := newSemT(t, e.client(t), name, n, extFastOpts()), 1+i%3
			wg.Go(func() {
				for range 10 {
					l, err := s.AcquireN(ctx, k)
					if err != nil {
						t.Errorf("AcquireN(%d) = %v", k, err)
						return
					}
					c := cur.Add(int64(k))
					for p := peak.Load(); c > p && !peak.CompareAndSwap(p, c); p = peak.Load() {
					}
					time.Sleep(time.Millisecond) // real time: hold while the other clients (real goroutines) try
					cur.Add(-int64(k))
					if err := s.Release(ctx, l); err != nil {
						t.Errorf("Release = %v", err)
					}
				}
			})
		}
		wg.Wait()
		if p := peak.Load(); p > n {
			t.Errorf("peak permits held = %d, want at most %d", p, n)
		}
	})
}

// TestSemaphoreReleaseNeverAcquired: a release of permits the releasing
// lease never acquired — a forged lease naming a live holder's token,
// another semaphore's lease, a nil one — is refused with ErrNotHeld and
// returns nothing.
func TestSemaphoreReleaseNeverAcquired(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		s := newSemT(t, e.client(t), name, 3, o)
		held, err := s.AcquireN(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		elsewhere := newSemT(t, e.client(t), name+".other", 3, o)
		foreign, err := elsewhere.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		permits, _ := SemaphoreKeys(name)
		forged, _ := newKitLease(lockbridge.LeaseSpec{Key: permits, Token: held.Token, Fence: 0, Count: 2, Start: time.Now(), Valid: time.Second})
		for what, l := range map[string]*Lease{"forged": forged, "foreign": foreign, "nil": nil} {
			if err := s.Release(ctx, l); !errors.Is(err, ErrNotHeld) {
				t.Errorf("Release(%s) = %v, want ErrNotHeld", what, err)
			}
		}
		if got, err := s.Available(ctx); err != nil || got != 1 {
			t.Errorf("Available() after the refused releases = %d, %v; want 1", got, err)
		}
		if err := s.Release(ctx, held); err != nil {
			t.Errorf("Release of the real holding = %v", err)
		}
	})
}

// TestSemaphoreAcquireNWaits: AcquireN polls until k permits are free
// together, holding none meanwhile; a deadline that ends the wait leaves
// nothing behind.
func TestSemaphoreAcquireNWaits(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		holder := newSemT(t, e.client(t), name, 4, extFastOpts())
		a, err := holder.AcquireN(ctx, 2)
		if err != nil {
			t.Fatal(err)
		}
		b, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		waiter := newSemT(t, e.client(t), name, 4, extFastOpts())
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if _, err := waiter.AcquireN(short, 3); !errors.Is(err, ErrNotAcquired) || !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("AcquireN(3) with 1 free until a deadline = %v, want ErrNotAcquired and DeadlineExceeded", err)
		}
		if got, err := waiter.Available(ctx); err != nil || got != 1 {
			t.Errorf("Available() after the wait gave up = %d, %v; want 1", got, err)
		}
		got := make(chan error, 1)
		go func() {
			l, err := waiter.AcquireN(ctx, 3)
			if err == nil && l.Count != 3 {
				err = errors.New("lease Count is not 3")
			}
			got <- err
		}()
		if err := holder.Release(ctx, b); err != nil { // 2 free: not enough
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond) // real time: the waiter polls and finds 2
		select {
		case err := <-got:
			t.Fatalf("AcquireN(3) with 2 free = %v, want it still waiting", err)
		default:
		}
		if err := holder.Release(ctx, a); err != nil {
			t.Fatal(err)
		}
		select {
		case err := <-got:
			if err != nil {
				t.Fatalf("AcquireN(3) once 4 were free = %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("AcquireN(3) still waiting 10s after 4 permits were free")
		}
	})
}

// TestSemaphoreSizeNotANumber: a stored N that is not a positive integer
// (written by hand) fails Acquire and Resize with a permanent error, and
// grants nothing.
func TestSemaphoreSizeNotANumber(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts() // unbounded attempts: only a permanent error ends them
		s, c := newSemT(t, e.client(t), name, 2, o), e.client(t)
		for _, junk := range []string{"x", "0", "-3", "1.5"} {
			if err := c.Set(ctx, SemaphoreSizeKey(name), junk, 0).Err(); err != nil {
				t.Fatal(err)
			}
			if l, err := s.Acquire(ctx); !errors.Is(err, ErrPermanent) {
				t.Errorf("Acquire with the stored N %q = %v, %v; want ErrPermanent", junk, l, err)
			}
			if err := s.Resize(ctx, 3); !errors.Is(err, ErrPermanent) {
				t.Errorf("Resize with the stored N %q = %v, want ErrPermanent", junk, err)
			}
		}
		if got := len(extInspect(t, c, name, KindSemaphore).Holders); got != 0 {
			t.Errorf("Inspect: %d holders, want 0", got)
		}
	})
}

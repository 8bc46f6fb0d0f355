package locks

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/internal/lockbridge"
)

func newFairT(t *testing.T, r Redis, name string, o Options) *Fair {
	t.Helper()
	f, err := NewFair(r, name, o)
	if err != nil {
		t.Fatalf("NewFair(%q) = %v", name, err)
	}
	return f
}

func TestFairOptions(t *testing.T) {
	e := extMini(t)
	r := e.client(t)
	tests := []struct {
		name, key string
		o         Options
		field     string
	}{
		{"empty name", "", Options{TTL: time.Second}, "name"},
		{"zero TTL", "k", Options{}, "TTL"},
		{"nil redis", "k", Options{TTL: time.Second}, "Redis"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var rr Redis = r
			if tc.field == "Redis" {
				rr = nil
			}
			_, err := NewFair(rr, tc.key, tc.o)
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Field != tc.field {
				t.Fatalf("NewFair(%q) = %v, want an OptionError on %s", tc.key, err, tc.field)
			}
		})
	}
	f := newFairT(t, r, "k", Options{TTL: 100 * time.Millisecond, Retry: Retry{MaxDelay: 200 * time.Millisecond, Delay: time.Millisecond}})
	if got, want := f.WaitTTL(), 600*time.Millisecond; got != want {
		t.Errorf("WaitTTL() = %v, want %v (3 × MaxDelay)", got, want)
	}
}

// TestFairFIFO: waiters that queued one after another are granted in that
// order once the holder lets go.
func TestFairFIFO(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		admin := e.client(t)
		holder := newFairT(t, e.client(t), name, extFastOpts())
		hl, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatalf("holder Acquire = %v", err)
		}
		const n = 4
		var mu sync.Mutex
		var order []int
		var wg sync.WaitGroup
		for i := range n {
			f := newFairT(t, e.client(t), name, extFastOpts())
			wg.Add(1)
			go func() {
				defer wg.Done()
				l, err := f.Acquire(ctx)
				if err != nil {
					t.Errorf("waiter %d Acquire = %v", i, err)
					return
				}
				mu.Lock()
				order = append(order, i)
				mu.Unlock()
				if err := f.Release(ctx, l); err != nil {
					t.Errorf("waiter %d Release = %v", i, err)
				}
			}()
			extWaitFor(t, fmt.Sprintf("%d waiters queued", i+1), func() bool { return extInspect(t, admin, name, KindFair).Queue == i+1 })
		}
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatalf("holder Release = %v", err)
		}
		wg.Wait()
		if fmt.Sprint(order) != "[0 1 2 3]" {
			t.Errorf("grant order = %v, want [0 1 2 3]", order)
		}
		if q := extInspect(t, admin, name, KindFair).Queue; q != 0 {
			t.Errorf("queue after all grants = %d, want 0", q)
		}
	})
}

// TestFairAbandonedWaiterSkipped: a waiter that vanishes after queueing
// (no dequeue, no more polls) blocks the queue only until its entry
// expires, then the next waiter is granted.
func TestFairAbandonedWaiterSkipped(t *testing.T) {
	extTimeModes(t, func(t *testing.T, e *extEnv, clk *extClock) {
		ctx, name := context.Background(), extName(t)
		crashed := newFairT(t, pollOnly(e.client(t)), name, extStepOpts(clk, "a", -1))
		if _, err := crashed.poll(ctx, "vanished"); err != nil {
			t.Fatalf("first poll = %v, want a grant", err) // takes the lock, then holds it
		}
		if _, err := crashed.poll(ctx, "abandoned"); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("poll while held = %v, want ErrNotAcquired", err)
		}
		b := newFairT(t, pollOnly(e.client(t)), name, extStepOpts(clk, "b", 200))
		begin := clk.Now()
		l, err := b.Acquire(ctx)
		if err != nil {
			t.Fatalf("Acquire behind an abandoned waiter = %v, want a grant after its entry expires", err)
		}
		waited := clk.Since(begin)
		// The lock's holder vanished too: its TTL (1s) and the waiter's entry
		// (WaitTTL, 1s, from its one poll) both had to run out first.
		if waited < b.WaitTTL() || waited > b.WaitTTL()+2*b.s.c.Retry.MaxDelay {
			t.Errorf("granted after %v of virtual time, want within [%v, %v]", waited, b.WaitTTL(), b.WaitTTL()+2*b.s.c.Retry.MaxDelay)
		}
		if l.Err() != nil {
			t.Errorf("lease.Err() = %v, want nil", l.Err())
		}
	})
}

// TestFairAbandonedWaiterRealRedis: the same over real time.
func TestFairAbandonedWaiterRealRedis(t *testing.T) {
	e := extReal(t)
	ctx, name := context.Background(), extName(t)
	o := extFastOpts()
	o.TTL = 300 * time.Millisecond
	a := newFairT(t, e.client(t), name, o)
	if _, err := a.poll(ctx, "abandoned"); err != nil {
		t.Fatalf("first poll = %v, want a grant", err)
	}
	if err := a.leave(ctx, "abandoned"); err != nil { // gives the lock back
		t.Fatal(err)
	}
	if _, err := a.poll(ctx, "abandoned"); err != nil { // queued at the head, lock free: granted again
		t.Fatalf("second poll = %v", err)
	}
	_ = a.leave(ctx, "abandoned")
	if _, err := a.poll(ctx, "holder"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.poll(ctx, "abandoned"); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("poll while held = %v, want ErrNotAcquired", err)
	}
	_ = a.leave(ctx, "holder") // the holder leaves; the abandoned waiter is at the head
	begin := time.Now()
	b := newFairT(t, e.client(t), name, o)
	bctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := b.Acquire(bctx); err != nil {
		t.Fatalf("Acquire behind an abandoned waiter = %v", err)
	}
	if waited := time.Since(begin); waited < b.WaitTTL()/2 {
		t.Errorf("granted after %v: the abandoned waiter (entry %v) was not waited for", waited, b.WaitTTL())
	}
}

// TestFairCancelledWaiterDequeued: a waiter whose context is cancelled
// leaves the queue at once, so the one behind it is not held up.
func TestFairCancelledWaiterDequeued(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		admin := e.client(t)
		o := extFastOpts() // WaitTTL 10s: a stale entry would outlast the waits below
		holder := newFairT(t, e.client(t), name, o)
		hl, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		first := make(chan error, 1)
		go func() {
			_, err := newFairT(t, e.client(t), name, o).Acquire(cctx)
			first <- err
		}()
		extWaitFor(t, "first waiter queued", func() bool { return extInspect(t, admin, name, KindFair).Queue == 1 })
		second := make(chan error, 1)
		go func() {
			f := newFairT(t, e.client(t), name, o)
			sctx, c := context.WithTimeout(ctx, 5*time.Second)
			defer c()
			l, err := f.Acquire(sctx)
			if err == nil {
				err = f.Release(ctx, l)
			}
			second <- err
		}()
		extWaitFor(t, "second waiter queued", func() bool { return extInspect(t, admin, name, KindFair).Queue == 2 })
		cancel()
		if err := <-first; !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled Acquire = %v, want context.Canceled", err)
		}
		if q := extInspect(t, admin, name, KindFair).Queue; q != 1 {
			t.Errorf("queue after cancel = %d, want 1", q)
		}
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatal(err)
		}
		if err := <-second; err != nil {
			t.Errorf("second waiter = %v, want a grant (the cancelled one left the queue)", err)
		}
	})
}

// TestFairReleaseAndExtend: owner-checked release and extension; a lease
// whose TTL ran out cannot release.
func TestFairReleaseAndExtend(t *testing.T) {
	e := extMini(t)
	ctx, name := context.Background(), extName(t)
	clk := newExtClock(e.mr)
	m := &Metrics{}
	o := extStepOpts(clk, "a", 1)
	o.Metrics = m
	f := newFairT(t, e.client(t), name, o)
	l, err := f.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lock, _, _, _ := FairKeys(name)
	forged, _ := newKitLease(lockbridge.LeaseSpec{Clock: clk, Key: lock, Token: "someone-else", Fence: 0, Count: 1, Start: clk.Now(), Valid: time.Second})
	if err := f.Release(ctx, forged); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Release(forged) = %v, want ErrNotHeld", err)
	}
	clk.Advance(700 * time.Millisecond)
	if err := f.Extend(ctx, l); err != nil {
		t.Fatalf("Extend = %v", err)
	}
	clk.Advance(700 * time.Millisecond)
	if !extInspect(t, e.client(t), name, KindFair).Held() {
		t.Fatal("lock gone 1.4s after acquisition despite Extend at 0.7s")
	}
	clk.Advance(time.Second)
	if err := f.Release(ctx, l); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Release after expiry = %v, want ErrNotHeld", err)
	}
	s := m.Snapshot()
	// The forged lease is refused before Redis is asked: it is no loss.
	if s.Acquired != 1 || s.Renewals != 1 || s.Lost != 1 || m.Waits.Snapshot().Count != 1 {
		t.Errorf("metrics = %+v, waits %d; want 1 acquired, 1 renewal, 1 lost, 1 wait", s, m.Waits.Snapshot().Count)
	}
}

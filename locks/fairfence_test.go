package locks

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFairFencing: with Options.Fencing the fair lock's grants carry
// strictly increasing fence tokens from a counter that never expires, in
// the lock's slot; without it, Fence is 0 and no counter is written. A
// counter that cannot be incremented fails Acquire at once (ErrPermanent)
// and leaves neither a lock key nor a queued waiter.
func TestFairFencing(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		admin := e.client(t)
		name := extName(t)
		o := extFastOpts()
		o.Fencing = true
		a, b := newFairT(t, e.client(t), name, o), newFairT(t, e.client(t), name, o)
		var last int64
		for i, f := range []*Fair{a, b, a, b} {
			l := extAcquire(t, f)
			if l.Fence <= last {
				t.Errorf("grant %d: Fence = %d, want > %d", i+1, l.Fence, last)
			}
			last = l.Fence
			if err := f.Release(ctx, l); err != nil {
				t.Fatalf("Release = %v", err)
			}
		}
		if d := admin.PTTL(ctx, FairFenceKey(name)).Val(); d != -1 {
			t.Errorf("PTTL(%s) = %v, want -1 (never expires)", FairFenceKey(name), d)
		}

		plain := newFairT(t, e.client(t), name+"p", extFastOpts())
		l := extAcquire(t, plain)
		if l.Fence != 0 {
			t.Errorf("Fence without Fencing = %d, want 0", l.Fence)
		}
		_ = plain.Release(ctx, l)
		if n := admin.Exists(ctx, FairFenceKey(name+"p")).Val(); n != 0 {
			t.Errorf("EXISTS %s = %d without Fencing, want 0", FairFenceKey(name+"p"), n)
		}

		bad := name + "bad"
		admin.Set(ctx, FairFenceKey(bad), "x", 0)
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if _, err := newFairT(t, e.client(t), bad, o).Acquire(cctx); !errors.Is(err, ErrPermanent) || cctx.Err() != nil {
			t.Errorf("Acquire with a non-integer fence counter = %v, want ErrPermanent at once", err)
		}
		lock, queue, _, _ := FairKeys(bad)
		if n := admin.Exists(ctx, lock).Val(); n != 0 {
			t.Errorf("EXISTS %s = %d after a failed fenced grant, want 0", lock, n)
		}
		if n := admin.ZCard(ctx, queue).Val(); n != 0 {
			t.Errorf("ZCARD %s = %d after the failed Acquire, want 0 (it left the queue)", queue, n)
		}
	})
}

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

func newRWT(t *testing.T, r Redis, name string, o Options) *RWLock {
	t.Helper()
	rw, err := NewRWLock(r, name, o)
	if err != nil {
		t.Fatalf("NewRWLock(%q) = %v", name, err)
	}
	return rw
}

// TestRWReadersShareWriterExcluded: readers hold together; a writer is
// refused while any reader holds, and readers while a writer holds.
func TestRWReadersShareWriterExcluded(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		once := extFastOpts()
		once.Retry.Attempts = 1
		rw := newRWT(t, e.client(t), name, once)
		r1, err := rw.RLock(ctx)
		if err != nil {
			t.Fatalf("RLock 1 = %v", err)
		}
		r2, err := rw.RLock(ctx)
		if err != nil {
			t.Fatalf("RLock 2 while a reader holds = %v, want shared", err)
		}
		if _, err := rw.Lock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Lock while 2 readers hold = %v, want ErrNotAcquired", err)
		}
		if q := extInspect(t, e.client(t), name, KindRW).Queue; q != 0 {
			t.Errorf("writer intent left behind by a writer that gave up: Queue = %d", q)
		}
		for _, l := range []*Lease{r1, r2} {
			if err := rw.RUnlock(ctx, l); err != nil {
				t.Fatalf("RUnlock = %v", err)
			}
		}
		w, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock with no readers = %v", err)
		}
		if _, err := rw.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("RLock while a writer holds = %v, want ErrNotAcquired", err)
		}
		if _, err := rw.Lock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("second Lock = %v, want ErrNotAcquired", err)
		}
		if err := rw.Unlock(ctx, w); err != nil {
			t.Errorf("Unlock = %v", err)
		}
	})
}

// TestRWReaderOwnedRelease: only a reader's own lease releases its read.
func TestRWReaderOwnedRelease(t *testing.T) {
	e := extMini(t)
	ctx, name := context.Background(), extName(t)
	clk := newExtClock(e.mr)
	rw := newRWT(t, e.client(t), name, extStepOpts(clk, "a", 1))
	r1, _ := rw.RLock(ctx)
	r2, err := rw.RLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, readers, _, _ := RWKeys(name)
	forged, _ := newKitLease(lockbridge.LeaseSpec{Clock: clk, Key: readers, Token: "not-a-reader", Fence: 0, Count: 1, Start: clk.Now(), Valid: time.Second})
	if err := rw.RUnlock(ctx, forged); !errors.Is(err, ErrNotHeld) {
		t.Errorf("RUnlock(forged) = %v, want ErrNotHeld", err)
	}
	if err := rw.Unlock(ctx, r1); !errors.Is(err, ErrNotHeld) {
		t.Errorf("Unlock(read lease) = %v, want ErrNotHeld", err)
	}
	if err := rw.RUnlock(ctx, r2); err != nil {
		t.Fatalf("RUnlock(r2) = %v", err)
	}
	if err := rw.RUnlock(ctx, r2); !errors.Is(err, ErrNotHeld) {
		t.Errorf("RUnlock(r2) twice = %v, want ErrNotHeld", err)
	}
	info := extInspect(t, e.client(t), name, KindRW)
	if len(info.Holders) != 1 || info.Holders[0].Token != r1.Token || !info.Holders[0].Read {
		t.Fatalf("holders after the releases = %+v, want reader %s only", info.Holders, r1.Token)
	}
	if _, err := rw.Lock(ctx); !errors.Is(err, ErrNotAcquired) {
		t.Errorf("Lock while r1 still reads = %v, want ErrNotAcquired", err)
	}
}

// TestRWWriterNotStarved: once a writer waits, new readers are refused, so
// the readers drain and the writer gets in.
func TestRWWriterNotStarved(t *testing.T) {
	e := extMini(t)
	ctx, name := context.Background(), extName(t)
	clk := newExtClock(e.mr)
	rw := newRWT(t, e.client(t), name, extStepOpts(clk, "a", 1))
	r1, _ := rw.RLock(ctx)
	if _, err := rw.tryWrite(ctx, "writer"); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("write poll with a reader = %v, want ErrNotAcquired", err)
	}
	if q := extInspect(t, e.client(t), name, KindRW).Queue; q != 1 {
		t.Fatalf("Queue while the writer waits = %d, want 1 (its intent)", q)
	}
	if _, err := rw.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
		t.Fatalf("RLock while a writer waits = %v, want ErrNotAcquired", err)
	}
	if err := rw.RUnlock(ctx, r1); err != nil {
		t.Fatal(err)
	}
	if _, err := rw.tryWrite(ctx, "writer"); err != nil {
		t.Fatalf("write poll after the readers drained = %v, want a grant", err)
	}
}

// TestRWVanishedWriterIntentExpires: a writer that announced its intent and
// vanished blocks new readers for IntentTTL only.
func TestRWVanishedWriterIntentExpires(t *testing.T) {
	extTimeModes(t, func(t *testing.T, e *extEnv, clk *extClock) {
		ctx, name := context.Background(), extName(t)
		rw := newRWT(t, e.client(t), name, extStepOpts(clk, "a", 1))
		r1, _ := rw.RLock(ctx)
		_, _ = rw.tryWrite(ctx, "vanished")
		_ = rw.RUnlock(ctx, r1)
		if _, err := rw.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("RLock under a live intent = %v, want ErrNotAcquired", err)
		}
		clk.Advance(rw.IntentTTL())
		if _, err := rw.RLock(ctx); err != nil {
			t.Fatalf("RLock after the intent expired = %v", err)
		}
	})
}

// TestRWCrashedReaderExpires: a reader that never releases frees its share
// after its TTL; extending keeps it.
func TestRWCrashedReaderExpires(t *testing.T) {
	extTimeModes(t, func(t *testing.T, e *extEnv, clk *extClock) {
		ctx, name := context.Background(), extName(t)
		rw := newRWT(t, e.client(t), name, extStepOpts(clk, "a", 1))
		kept, _ := rw.RLock(ctx)
		if _, err := rw.RLock(ctx); err != nil { // this one crashes
			t.Fatal(err)
		}
		clk.Advance(600 * time.Millisecond)
		if err := rw.Extend(ctx, kept); err != nil {
			t.Fatalf("Extend(read) = %v", err)
		}
		clk.Advance(600 * time.Millisecond)
		info := extInspect(t, e.client(t), name, KindRW)
		if len(info.Holders) != 1 || info.Holders[0].Token != kept.Token {
			t.Fatalf("holders 1.2s on = %+v, want only the extended reader", info.Holders)
		}
		_ = rw.RUnlock(ctx, kept)
		w, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock after the crashed reader expired = %v", err)
		}
		if err := rw.Extend(ctx, w); err != nil {
			t.Errorf("Extend(write) = %v", err)
		}
	})
}

// TestRWStress: concurrent readers and writers never overlap a writer with
// anyone, through the Reader and Writer adapters.
func TestRWStress(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		var readers, writers, maxReaders atomic.Int64
		check := func(write bool) {
			r, w := readers.Load(), writers.Load()
			if w > 1 || (w == 1 && r > 0) {
				t.Errorf("overlap: %d writers with %d readers (after a %s grant)", w, r, map[bool]string{true: "write", false: "read"}[write])
			}
			for m := maxReaders.Load(); r > m && !maxReaders.CompareAndSwap(m, r); m = maxReaders.Load() {
			}
		}
		var wg sync.WaitGroup
		for i := range 6 {
			write := i < 2
			rw := newRWT(t, e.client(t), name, extFastOpts())
			side := rw.Reader()
			if write {
				side = rw.Writer()
			}
			wg.Go(func() {
				for range 15 {
					l, err := side.Acquire(ctx)
					if err != nil {
						t.Errorf("Acquire = %v", err)
						return
					}
					ctr := &readers
					if write {
						ctr = &writers
					}
					ctr.Add(1)
					check(write)
					time.Sleep(time.Millisecond) // real time: hold while the other clients (real goroutines) try for it
					ctr.Add(-1)
					if err := side.Release(ctx, l); err != nil {
						t.Errorf("Release = %v", err)
					}
				}
			})
		}
		wg.Wait()
		t.Logf("at most %d readers at once", maxReaders.Load())
	})
}

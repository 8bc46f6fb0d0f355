package locks

import (
	"context"
	"errors"
	"testing"
	"time"
)

// wakes reports how many wake-ups each token's list holds.
func wakes(t *testing.T, r Redis, name string, tokens ...string) []int64 {
	t.Helper()
	rdb := r.(Blocker)
	var n []int64
	for _, tok := range tokens {
		v, err := rdb.Do(context.Background(), "llen", WakePrefix(name)+tok).Int64()
		if err != nil {
			t.Fatalf("LLEN = %v", err)
		}
		n = append(n, v)
	}
	return n
}

// TestSemaphoreWaiterWokenByRelease: a waiter whose backoff outlasts its
// deadline is granted when a permit is released (TestFairWithoutBlockerPolls
// shows the same wait without a wake-up missing it).
func TestSemaphoreWaiterWokenByRelease(t *testing.T) {
	e := extReal(t)
	ctx, name := wakeCtx(t), extName(t)
	o := Options{TTL: time.Minute, Retry: slowPoll()}
	holder := newSemT(t, e.client(t), name, 1, o)
	hl, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("holder Acquire = %v", err)
	}
	r := e.client(t)
	done := acquireAsync(ctx, newSemT(t, e.client(t), name, 1, o))
	waiters, _, _ := waitKeys(name)
	extWaitFor(t, "the waiter to register", func() bool { return r.ZCard(ctx, waiters).Val() == 1 })
	if err := holder.Release(ctx, hl); err != nil {
		t.Fatalf("holder Release = %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("waiter = %v, want a grant as soon as the permit was released", err)
	}
	if n := r.ZCard(ctx, waiters).Val(); n != 0 {
		t.Errorf("waiters after the grant = %d, want 0", n)
	}
}

// TestSemaphoreWakesOnePerPermit: each release wakes the oldest waiter
// only, and takes it off the waiters.
func TestSemaphoreWakesOnePerPermit(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		r := e.client(t)
		s := newSemT(t, r, name, 2, Options{TTL: time.Minute, Retry: slowPoll()})
		var held []*Lease
		for range 2 {
			l, err := s.Acquire(ctx)
			if err != nil {
				t.Fatalf("Acquire = %v", err)
			}
			held = append(held, l)
		}
		for _, tok := range []string{"w1", "w2", "w3"} {
			if _, err := s.try(ctx, tok); !errors.Is(err, ErrNotAcquired) {
				t.Fatalf("try(%q) with every permit taken = %v, want ErrNotAcquired", tok, err)
			}
		}
		if err := s.Release(ctx, held[0]); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if got := wakes(t, r, name, "w1", "w2", "w3"); got[0] != 1 || got[1] != 0 || got[2] != 0 {
			t.Fatalf("wake lists after one release = %v, want [1 0 0]", got)
		}
		if err := s.Release(ctx, held[1]); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if got := wakes(t, r, name, "w1", "w2", "w3"); got[0] != 1 || got[1] != 1 || got[2] != 0 {
			t.Fatalf("wake lists after two releases = %v, want [1 1 0]", got)
		}
	})
}

// TestRWLockWaitersWoken: readers blocked by a writer are all woken by its
// release; a writer waiting for readers to drain is woken by the last
// reader's release. Every backoff outlasts the deadline, so only the
// wake-ups grant them.
func TestRWLockWaitersWoken(t *testing.T) {
	e := extReal(t)
	ctx, name := wakeCtx(t), extName(t)
	o := Options{TTL: time.Minute, Retry: slowPoll()}
	rw := newRWT(t, e.client(t), name, o)
	r := e.client(t)
	waiters, _, _ := waitKeys(name)
	wl, err := rw.Lock(ctx)
	if err != nil {
		t.Fatalf("Lock = %v", err)
	}
	var readers []<-chan error
	for range 3 {
		readers = append(readers, acquireAsync(ctx, newRWT(t, e.client(t), name, o).Reader()))
	}
	extWaitFor(t, "the readers to register", func() bool { return r.ZCard(ctx, waiters).Val() == 3 })
	if err := rw.Unlock(ctx, wl); err != nil {
		t.Fatalf("Unlock = %v", err)
	}
	for i, done := range readers {
		if err := <-done; err != nil {
			t.Fatalf("reader %d = %v, want a grant once the writer released", i, err)
		}
	}
	rl, err := rw.RLock(ctx)
	if err != nil {
		t.Fatalf("RLock = %v", err)
	}
	writer := acquireAsync(ctx, newRWT(t, e.client(t), name, o).Writer())
	_, _, intent, _ := RWKeys(name)
	extWaitFor(t, "the writer's intent", func() bool { return r.Exists(ctx, intent).Val() == 1 })
	if err := rw.RUnlock(ctx, rl); err != nil {
		t.Fatalf("RUnlock = %v", err)
	}
	if err := <-writer; err != nil {
		t.Fatalf("writer = %v, want a grant once the last reader left", err)
	}
}

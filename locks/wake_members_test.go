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

// TestServiceWaiterWoken: a Service waiter whose backoff outlasts its
// deadline is granted when the holder's last release frees the lock, and
// leaves no waiter entry behind; a partial release (a re-entry still
// held) wakes nobody.
func TestServiceWaiterWoken(t *testing.T) {
	e := extReal(t)
	ctx, key := wakeCtx(t), extName(t)
	o := Options{TTL: time.Minute, Retry: slowPoll()}
	holder, err := NewService(e.client(t), key, o)
	if err != nil {
		t.Fatal(err)
	}
	outer, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("holder Acquire = %v", err)
	}
	inner, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("holder re-entry = %v", err)
	}
	waiter, err := NewService(e.client(t), key, o)
	if err != nil {
		t.Fatal(err)
	}
	r := e.client(t)
	sw := newServiceWait(key)
	done := acquireAsync(ctx, waiter)
	extWaitFor(t, "the waiter to register", func() bool { return r.ZCard(ctx, sw.waiters).Val() == 1 })
	if err := holder.Release(ctx, inner); err != nil {
		t.Fatalf("inner Release = %v", err)
	}
	if n := r.ZCard(ctx, sw.waiters).Val(); n != 1 {
		t.Fatalf("waiters after a partial release = %d, want 1 (nobody woken)", n)
	}
	if err := holder.Release(ctx, outer); err != nil {
		t.Fatalf("outer Release = %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("waiter = %v, want a grant once the lock was freed", err)
	}
	if n := r.ZCard(ctx, sw.waiters).Val(); n != 0 {
		t.Errorf("waiters after the grant = %d, want 0", n)
	}
}

// TestServiceWaitKeysShareTheSlot: the registry's keys hash like the lock
// key, with or without a hash tag of its own; a key none can share a slot
// with turns the registry off.
func TestServiceWaitKeysShareTheSlot(t *testing.T) {
	for _, tc := range []struct{ key, tag string }{
		{"orders:42", "orders:42"}, {"{r}:lock", "r"}, {"a{}b", ""}, {"x{y}z{w}", "y"}, {"a}b", ""},
	} {
		sw := newServiceWait(tc.key)
		if tc.tag == "" {
			if !sw.off {
				t.Errorf("newServiceWait(%q) is on, want off: no registry key can share its slot", tc.key)
			}
			continue
		}
		for _, k := range []string{sw.waiters, sw.seq, sw.prefix + "t", sw.wake + "t"} {
			if got := hashTag(k); got != tc.tag {
				t.Errorf("hashTag(%q) = %q, want %q (the tag of %q)", k, got, tc.tag, tc.key)
			}
		}
		if got := hashTag(tc.key); got != tc.tag {
			t.Errorf("hashTag(%q) = %q, want %q", tc.key, got, tc.tag)
		}
	}
}

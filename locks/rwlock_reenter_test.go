package locks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
)

// rwSeen is what Inspect sees of an RWLock: its reader tokens and its
// writer token ("" if none).
func rwSeen(t *testing.T, e *extEnv, name string) (readers []string, writer string) {
	t.Helper()
	for _, h := range extInspect(t, e.client(t), name, KindRW).Holders {
		if h.Read {
			readers = append(readers, h.Token)
		} else {
			writer = h.Token
		}
	}
	return readers, writer
}

// TestRWReenter: a read and a write holding each re-enter through their
// lease without waiting (a reader even while a writer's intent holds new
// readers off); the holding lasts until its last lease is released, and
// only then does a waiting writer get the lock.
func TestRWReenter(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		rw := newRWT(t, e.client(t), name, extFastOpts())
		once := extFastOpts()
		once.Retry.Attempts = 1
		other := newRWT(t, e.client(t), name, once)
		r1, err := rw.RLock(ctx)
		if err != nil {
			t.Fatalf("RLock = %v", err)
		}
		wl := make(chan *Lease, 1)
		writer := newRWT(t, e.client(t), name, extFastOpts())
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		go func() { l, _ := writer.Lock(wctx); wl <- l }()
		extWaitFor(t, "the writer's intent stands", func() bool { return extInspect(t, e.client(t), name, KindRW).Queue == 1 })
		if _, err := other.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("a new reader's RLock behind a waiting writer = %v, want ErrNotAcquired", err)
		}
		r2, err := rw.Reenter(ctx, r1)
		if err != nil {
			t.Fatalf("Reenter(read lease) behind a waiting writer = %v, want a grant", err)
		}
		if !r2.Shared || r2.Count != 2 || r2.Token != r1.Token {
			t.Errorf("re-entered read lease = %+v, want Shared, Count 2, the first lease's token", r2)
		}
		if err := rw.RUnlock(ctx, r1); err != nil {
			t.Fatalf("RUnlock(first of two) = %v", err)
		}
		if err := r2.Err(); err != nil {
			t.Errorf("second lease's Err() after the first's RUnlock = %v, want held", err)
		}
		if readers, _ := rwSeen(t, e, name); len(readers) != 1 {
			t.Fatalf("readers after the first of two RUnlocks = %v, want the one holding", readers)
		}
		if err := rw.RUnlock(ctx, r1); !errors.Is(err, ErrNotHeld) {
			t.Errorf("second RUnlock of the same lease = %v, want ErrNotHeld", err)
		}
		if err := rw.Unlock(ctx, r2); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Unlock(read lease) = %v, want ErrNotHeld", err)
		}
		if err := rw.RUnlock(ctx, r2); err != nil {
			t.Fatalf("RUnlock(last) = %v", err)
		}
		var w *Lease
		select {
		case w = <-wl:
		case <-time.After(10 * time.Second):
			t.Fatal("the waiting writer did not get the lock after the last read lease's RUnlock")
		}
		if w == nil {
			t.Fatal("the waiting writer's Lock failed")
		}
		if err := writer.Unlock(ctx, w); err != nil {
			t.Errorf("the writer's Unlock = %v", err)
		}
	})
}

// TestRWReenterWrite: a write holding re-enters; Unlock of the first lease
// keeps the writer key, the last one frees it; a lease of another Locker
// and a lost holding are refused.
func TestRWReenterWrite(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		ms := &Metrics{}
		o.Metrics = ms
		rw := newRWT(t, e.client(t), name, o)
		w1, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		w2, err := rw.Reenter(ctx, w1)
		if err != nil || w2.Shared || w2.Count != 2 {
			t.Fatalf("Reenter(write lease) = %+v, %v; want an exclusive lease with Count 2", w2, err)
		}
		if _, err := newRWT(t, e.client(t), name, o).Reenter(ctx, w1); !errors.Is(err, ErrNotHeld) {
			t.Errorf("another RWLock's Reenter(w1) = %v, want ErrNotHeld", err)
		}
		if err := rw.Unlock(ctx, w1); err != nil {
			t.Fatalf("Unlock(first of two) = %v", err)
		}
		if _, writer := rwSeen(t, e, name); writer != w1.Token {
			t.Fatalf("writer after the first of two Unlocks = %q, want %q", writer, w1.Token)
		}
		if _, err := rw.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("RLock while the re-entered writer holds = %v, want ErrNotAcquired", err)
		}
		if err := rw.Unlock(ctx, w2); err != nil {
			t.Fatalf("Unlock(last) = %v", err)
		}
		if _, writer := rwSeen(t, e, name); writer != "" {
			t.Fatalf("writer after the last Unlock = %q, want none", writer)
		}
		if got := ms.Snapshot(); got.Acquired != 2 || got.Released != 2 || got.Lost != 0 {
			t.Errorf("metrics = %+v, want 2 acquired (grant, re-entry), 2 released, none lost", got)
		}
		w3, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		writer, _, _, _ := RWKeys(name)
		if err := e.client(t).Del(ctx, writer).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := rw.Reenter(ctx, w3); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Reenter of a holding whose key is gone = %v, want ErrNotHeld", err)
		}
		if !errors.Is(w3.Err(), ErrLockLost) {
			t.Errorf("Err() after a refused Reenter = %v, want ErrLockLost", w3.Err())
		}
		if _, err := rw.Reenter(ctx, nil); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Reenter(nil) = %v, want ErrNotHeld", err)
		}
	})
}

// TestRWWriterReadAndDowngrade: a writer takes the read lock its holding
// implies without waiting and keeps it past Unlock; Downgrade does both in
// one step, so a writer polling meanwhile never gets in between; neither
// writes anything for a lease that no longer holds the writer key.
func TestRWWriterReadAndDowngrade(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		rw := newRWT(t, e.client(t), name, o)
		w, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		r, err := rw.RLockAsWriter(ctx, w)
		if err != nil || !r.Shared {
			t.Fatalf("RLockAsWriter = %+v, %v; want a read lease", r, err)
		}
		if _, err := rw.RLock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("another reader's RLock while the writer holds = %v, want ErrNotAcquired", err)
		}
		if _, err := rw.RLockAsWriter(ctx, r); !errors.Is(err, ErrNotHeld) {
			t.Errorf("RLockAsWriter(read lease) = %v, want ErrNotHeld", err)
		}
		if err := rw.Unlock(ctx, w); err != nil {
			t.Fatalf("Unlock = %v", err)
		}
		if err := r.Err(); err != nil {
			t.Fatalf("the writer's read lease after Unlock: Err() = %v, want held", err)
		}
		if _, err := rw.Lock(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("Lock while the downgraded reader holds = %v, want ErrNotAcquired", err)
		}
		r2, err := rw.RLock(ctx)
		if err != nil {
			t.Fatalf("another reader's RLock beside it = %v, want shared", err)
		}
		for _, l := range []*Lease{r, r2} {
			if err := rw.RUnlock(ctx, l); err != nil {
				t.Fatalf("RUnlock = %v", err)
			}
		}

		// Downgrade, with a writer polling every millisecond all along.
		w, err = rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		wctx, stop := context.WithCancel(ctx)
		defer stop()
		rival := newRWT(t, e.client(t), name, extFastOpts())
		got := make(chan *Lease, 1)
		go func() { l, _ := rival.Lock(wctx); got <- l }()
		time.Sleep(20 * time.Millisecond) // the rival is polling
		d, err := rw.Downgrade(ctx, w)
		if err != nil || !d.Shared {
			t.Fatalf("Downgrade = %+v, %v; want a read lease", d, err)
		}
		if !errors.Is(w.Err(), ErrReleased) {
			t.Errorf("the write lease's Err() after Downgrade = %v, want ErrReleased", w.Err())
		}
		if err := rw.Unlock(ctx, w); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Unlock after Downgrade = %v, want ErrNotHeld", err)
		}
		readers, writer := rwSeen(t, e, name)
		if writer != "" || len(readers) != 1 || readers[0] != d.Token {
			t.Fatalf("after Downgrade: readers %v, writer %q; want only the downgraded reader %q", readers, writer, d.Token)
		}
		time.Sleep(50 * time.Millisecond) // the rival polls on: it must wait for the reader
		select {
		case l := <-got:
			t.Fatalf("the rival writer got the lock (%v) while the downgraded reader held it", l)
		default:
		}
		if err := rw.RUnlock(ctx, d); err != nil {
			t.Fatalf("RUnlock(downgraded) = %v", err)
		}
		select {
		case l := <-got:
			if l == nil {
				t.Fatal("the rival writer's Lock failed")
			}
		case <-time.After(10 * time.Second):
			t.Fatal("the rival writer did not get the lock after the downgraded reader left")
		}
	})
}

// TestRWDowngradeReentered: the Downgrade of one lease of a re-entered
// write holding keeps the writer key for the other lease; a Downgrade of a
// lease whose writer key is gone is ErrNotHeld and adds no reader.
func TestRWDowngradeReentered(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := extFastOpts()
		o.Retry.Attempts = 1
		rw := newRWT(t, e.client(t), name, o)
		w1, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		w2, err := rw.Reenter(ctx, w1)
		if err != nil {
			t.Fatalf("Reenter = %v", err)
		}
		d, err := rw.Downgrade(ctx, w1)
		if err != nil {
			t.Fatalf("Downgrade(one of two) = %v", err)
		}
		if readers, writer := rwSeen(t, e, name); writer != w1.Token || len(readers) != 1 {
			t.Fatalf("after Downgrade of one of two: readers %v, writer %q; want one reader and the writer", readers, writer)
		}
		if err := rw.Unlock(ctx, w2); err != nil {
			t.Fatalf("Unlock(last write lease) = %v", err)
		}
		if readers, writer := rwSeen(t, e, name); writer != "" || len(readers) != 1 || readers[0] != d.Token {
			t.Fatalf("after the last Unlock: readers %v, writer %q; want only %q", readers, writer, d.Token)
		}
		if err := rw.RUnlock(ctx, d); err != nil {
			t.Fatal(err)
		}
		w, err := rw.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock = %v", err)
		}
		writer, _, _, _ := RWKeys(name)
		if err := e.client(t).Set(ctx, writer, "someone-else", 0).Err(); err != nil {
			t.Fatal(err)
		}
		if _, err := rw.Downgrade(ctx, w); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Downgrade of a lease whose writer key is another's = %v, want ErrNotHeld", err)
		}
		if readers, owner := rwSeen(t, e, name); len(readers) != 0 || owner != "someone-else" {
			t.Errorf("after a refused Downgrade: readers %v, writer %q; want none and the other's", readers, owner)
		}
	})
}

// watchdogEnv is extBoth for real-clock renewal tests: over miniredis,
// TTLs follow the wall clock (ClockTTL), as on redis-server.
func watchdogEnv(t *testing.T, fn func(t *testing.T, e *extEnv)) {
	t.Run("miniredis", func(t *testing.T) {
		m := miniredis.RunT(t)
		m.ClockTTL(true)
		fn(t, &extEnv{mr: m, addr: m.Addr()})
	})
	t.Run("redis-server", func(t *testing.T) { fn(t, extReal(t)) })
}

// renewingLock is one kind of holding a renewing RWLock or Fair lock
// issues: how to take and free it, and the key whose loss ends it.
type renewingLock struct {
	name    string
	acquire func(ctx context.Context) (*Lease, error)
	release func(ctx context.Context, l *Lease) error
	key     func(l *Lease) string
}

// renewingLocks builds NewRWLockWatchdog's read and write holdings and
// NewFairWatchdog's, on name, counted into ms.
func renewingLocks(t *testing.T, e *extEnv, name string, o Options) []renewingLock {
	t.Helper()
	rw, err := NewRWLockWatchdog(e.client(t), name+".rw", o)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFairWatchdog(e.client(t), name+".fair", o)
	if err != nil {
		t.Fatal(err)
	}
	writer, _, _, prefix := RWKeys(name + ".rw")
	lock, _, _, _ := FairKeys(name + ".fair")
	return []renewingLock{
		{"read", rw.RLock, rw.RUnlock, func(l *Lease) string { return prefix + l.Token }},
		{"write", rw.Lock, rw.Unlock, func(*Lease) string { return writer }},
		{"fair", f.Acquire, f.Release, func(*Lease) string { return lock }},
	}
}

// TestRWLockAndFairWatchdog: the holdings of NewRWLockWatchdog and
// NewFairWatchdog outlive their TTL while held, renewed in the background
// (a plain RWLock's or Fair's run out); the renewal stops on release; a
// holding whose key is deleted behind its back closes Done with
// ErrLockLost, counted once.
func TestRWLockAndFairWatchdog(t *testing.T) {
	watchdogEnv(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		const ttl = time.Second
		ms := &Metrics{}
		o := Options{TTL: ttl, Metrics: ms, Retry: Retry{Attempts: 1}}
		for _, k := range renewingLocks(t, e, name, o) {
			t.Run(k.name, func(t *testing.T) {
				before := ms.Snapshot()
				l, err := k.acquire(ctx)
				if err != nil {
					t.Fatalf("acquire = %v", err)
				}
				// real time: the renewals run on the wall clock against a real server (or miniredis on the wall clock)
				time.Sleep(ttl * 5 / 2)
				if err := l.Err(); err != nil {
					t.Fatalf("Err() %v after the grant, TTL %v = %v, want held (renewed)", ttl*5/2, ttl, err)
				}
				if n, err := e.client(t).Exists(ctx, k.key(l)).Result(); err != nil || n != 1 {
					t.Fatalf("EXISTS %s %v after the grant = %d, %v; want 1", k.key(l), ttl*5/2, n, err)
				}
				if got := ms.Snapshot().Renewals - before.Renewals; got < 2 {
					t.Errorf("renewals in %v = %d, want at least 2", ttl*5/2, got)
				}
				if err := k.release(ctx, l); err != nil {
					t.Fatalf("release = %v", err)
				}
				after := ms.Snapshot().Renewals
				// real time: the renewals run on the wall clock against a real server (or miniredis on the wall clock)
				time.Sleep(ttl)
				if got := ms.Snapshot().Renewals; got != after {
					t.Errorf("renewals went on after the release: %d, then %d", after, got)
				}
				l, err = k.acquire(ctx)
				if err != nil {
					t.Fatalf("acquire = %v", err)
				}
				lost := ms.Snapshot().Lost
				if err := e.client(t).Del(ctx, k.key(l)).Err(); err != nil {
					t.Fatal(err)
				}
				select {
				case <-l.Done():
				case <-time.After(10 * time.Second):
					t.Fatal("Done still open 10s after the holding's key was deleted")
				}
				if !errors.Is(l.Err(), ErrLockLost) {
					t.Errorf("Err() after the key was deleted = %v, want ErrLockLost", l.Err())
				}
				if got := ms.Snapshot().Lost - lost; got != 1 {
					t.Errorf("losses counted = %d, want 1", got)
				}
			})
		}
	})
}

// TestPlainRWLockAndFairRunOut is the control of TestRWLockAndFairWatchdog:
// without a watchdog, the same holdings run out after their TTL.
func TestPlainRWLockAndFairRunOut(t *testing.T) {
	watchdogEnv(t, func(t *testing.T, e *extEnv) {
		ctx, name := context.Background(), extName(t)
		o := Options{TTL: 300 * time.Millisecond, Retry: Retry{Attempts: 1}}
		rw, rw2 := newRWT(t, e.client(t), name+".rw", o), newRWT(t, e.client(t), name+".rw2", o)
		f, err := NewFair(e.client(t), name+".fair", o)
		if err != nil {
			t.Fatal(err)
		}
		for _, acquire := range []func(context.Context) (*Lease, error){rw.RLock, rw2.Lock, f.Acquire} {
			l, err := acquire(ctx)
			if err != nil {
				t.Fatalf("acquire = %v", err)
			}
			select {
			case <-l.Done():
			case <-time.After(10 * time.Second):
				t.Fatal("a plain holding did not run out 10s after its 300ms TTL")
			}
		}
	})
}

// TestRenewingRWLockAndFairOptions: the renewing constructors check
// RenewEvery as Watchdog does; the plain ones refuse it.
func TestRenewingRWLockAndFairOptions(t *testing.T) {
	r := extMini(t).client(t)
	o := Options{TTL: time.Second, RenewEvery: time.Second}
	if _, err := NewRWLockWatchdog(r, "rw", o); err == nil || !errors.As(err, new(*OptionError)) {
		t.Errorf("NewRWLockWatchdog with RenewEvery = TTL = %v, want an *OptionError", err)
	}
	if _, err := NewFairWatchdog(r, "f", o); err == nil || !errors.As(err, new(*OptionError)) {
		t.Errorf("NewFairWatchdog with RenewEvery = TTL = %v, want an *OptionError", err)
	}
	o.RenewEvery = 100 * time.Millisecond
	if _, err := NewRWLock(r, "rw", o); err == nil {
		t.Error("NewRWLock with RenewEvery = nil error, want it refused (a plain RWLock does not renew)")
	}
	if _, err := NewFair(r, "f", o); err == nil {
		t.Error("NewFair with RenewEvery = nil error, want it refused")
	}
	rw, err := NewRWLockWatchdog(r, "rw", o)
	if err != nil {
		t.Fatalf("NewRWLockWatchdog with RenewEvery 100ms = %v", err)
	}
	if rw.w.c.RenewEvery != o.RenewEvery {
		t.Errorf("RenewEvery = %v, want %v", rw.w.c.RenewEvery, o.RenewEvery)
	}
}

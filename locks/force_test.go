package locks_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// forcePatterns are the patterns ForceRelease supports, over nodes (one
// for all but Redlock).
var forcePatterns = []struct {
	name   string
	nodes  int
	renews bool // a renewal finds the loss
	new    lockstest.Factory
}{
	{"Basic", 1, false, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, k, o) })},
	{"Watchdog", 1, true, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewWatchdog(r, k, o)
	})},
	{"WatchdogFenced", 1, true, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewWatchdog(r, k, o)
	})},
	{"Fenced", 1, false, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, k, o) })},
	{"Reentrant", 1, false, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewReentrant(r, k, o)
	})},
	{"ServiceFenced", 1, true, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewService(r, k, o)
	})},
	{"MultiLock", 1, false, single(func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewMultiLock(r, []string{"{" + k + "}:a", "{" + k + "}:b"}, o)
	})},
	{"Redlock", 3, false, func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewRedlock(nodes, k, o)
	}},
	{"RedlockWatchdog", 3, true, func(nodes []locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewRedlockWatchdog(nodes, k, o)
	}},
}

// TestForceRelease: ForceRelease, from a Locker built as the holder's is,
// deletes the lock whoever holds it (one key per node; MultiLock's every
// key), so another client acquires at once — mutual exclusion broken, as
// documented — and the evicted holder's Release gets ErrNotHeld; a
// renewing holder learns of it at its next renewal; a fenced lock's
// counter is kept, so the next token is higher; on a free lock it deletes
// nothing. Over miniredis and a real redis-server.
func TestForceRelease(t *testing.T) {
	backends := map[string]func(t *testing.T) lockstest.Backend{
		"miniredis":    func(t *testing.T) lockstest.Backend { return lockstest.StartMiniredis(t, 3) },
		"redis-server": func(t *testing.T) lockstest.Backend { return lockstest.StartRedisServers(t, 3) },
	}
	for _, bname := range []string{"miniredis", "redis-server"} {
		t.Run(bname, func(t *testing.T) {
			b := backends[bname](t)
			for _, p := range forcePatterns {
				t.Run(p.name, func(t *testing.T) { checkForceRelease(t, b, p.nodes, p.renews, p.new) })
			}
		})
	}
}

func checkForceRelease(t *testing.T, b lockstest.Backend, nodes int, renews bool, newLocker lockstest.Factory) {
	b.Reset(t)
	ctx := context.Background()
	o := locks.Options{TTL: b.TTL(), Clock: b.Clock(), Retry: locks.Retry{Attempts: 1}, NodeTimeout: b.TTL() / 2}
	mk := func() locks.Locker {
		l, err := newLocker(b.Connect(t)[:nodes], "force", o)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	holder, other, operator := mk(), mk(), mk()
	l1, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire = %v", err)
	}
	n, err := locks.ForceRelease(ctx, operator)
	if err != nil || n == 0 {
		t.Fatalf("ForceRelease of a held lock = %d, %v; want > 0 keys deleted, nil", n, err)
	}
	l2, err := other.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire by another client after ForceRelease = %v, want a lease", err)
	}
	if l1.Fence != 0 && l2.Fence <= l1.Fence {
		t.Errorf("fence after ForceRelease = %d, want > the evicted holder's %d (the counter is kept)", l2.Fence, l1.Fence)
	}
	if renews {
		b.Advance(t, b.TTL()/2) // past a renewal
		select {
		case <-l1.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("the evicted holder's Done is not closed 10s after its renewal was due")
		}
		if err := l1.Err(); !errors.Is(err, locks.ErrLockLost) {
			t.Errorf("the evicted holder's Err = %v, want ErrLockLost", err)
		}
	}
	if err := holder.Release(ctx, l1); !errors.Is(err, locks.ErrNotHeld) {
		t.Errorf("Release by the evicted holder = %v, want ErrNotHeld", err)
	}
	if err := other.Release(ctx, l2); err != nil {
		t.Errorf("Release by the new holder = %v", err)
	}
	if n, err := locks.ForceRelease(ctx, operator); err != nil || n != 0 {
		t.Errorf("ForceRelease of a free lock = %d, %v; want 0, nil", n, err)
	}
}

// foreignLocker is a Locker of another package.
type foreignLocker struct{ locks.Locker }

// TestForceReleaseRefuses: for Fair and Semaphore (members with keys of
// their own), a Locker of another package, and a nil one, ForceRelease
// fails — ErrForceUnsupported, or an *OptionError for nil — and touches
// nothing: the lock stays held.
func TestForceReleaseRefuses(t *testing.T) {
	b := lockstest.StartMiniredis(t, 1)
	ctx := context.Background()
	o := locks.Options{TTL: b.TTL(), Clock: b.Clock(), Retry: locks.Retry{Attempts: 1}}
	for _, tc := range []struct {
		name string
		new  func(r locks.Redis) (locks.Locker, error)
	}{
		{"Fair", func(r locks.Redis) (locks.Locker, error) { return locks.NewFair(r, "force:fair", o) }},
		{"Semaphore", func(r locks.Redis) (locks.Locker, error) { return locks.NewSemaphore(r, "force:sem", 1, o) }},
		{"foreign", func(r locks.Redis) (locks.Locker, error) {
			l, err := locks.NewBasic(r, "force:foreign", o)
			return foreignLocker{l}, err
		}},
	} {
		mk := func() locks.Locker {
			l, err := tc.new(b.Connect(t)[0])
			if err != nil {
				t.Fatal(err)
			}
			return l
		}
		holder, other := mk(), mk()
		l, err := holder.Acquire(ctx)
		if err != nil {
			t.Fatalf("%s: Acquire = %v", tc.name, err)
		}
		if n, err := locks.ForceRelease(ctx, mk()); n != 0 || !errors.Is(err, locks.ErrForceUnsupported) {
			t.Errorf("ForceRelease(%s) = %d, %v; want 0, ErrForceUnsupported", tc.name, n, err)
		}
		if _, err := other.Acquire(ctx); !errors.Is(err, locks.ErrNotAcquired) {
			t.Errorf("%s: Acquire by another client after a refused ForceRelease = %v, want ErrNotAcquired", tc.name, err)
		}
		if err := holder.Release(ctx, l); err != nil {
			t.Errorf("%s: Release after a refused ForceRelease = %v", tc.name, err)
		}
	}
	var oe *locks.OptionError
	for _, lk := range []locks.Locker{nil, (*locks.Basic)(nil), (*locks.Redlock)(nil)} {
		if _, err := locks.ForceRelease(ctx, lk); !errors.As(err, &oe) {
			t.Errorf("ForceRelease(%#v) = %v, want an *OptionError", lk, err)
		}
	}
}

// TestForceReleaseRedlockNodeDown: a Redlock node that fails is a
// *NodeError in the joined error, and the lock is deleted on the others.
func TestForceReleaseRedlockNodeDown(t *testing.T) {
	b := lockstest.StartMiniredis(t, 3)
	ctx := context.Background()
	o := locks.Options{TTL: b.TTL(), Clock: b.Clock(), Retry: locks.Retry{Attempts: 1}, NodeTimeout: b.TTL() / 2}
	holder, err := locks.NewRedlock(b.Connect(t), "force:redlock", o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	b.Down(t, 1)
	operator, err := locks.NewRedlock(b.Connect(t), "force:redlock", o)
	if err != nil {
		t.Fatal(err)
	}
	n, err := locks.ForceRelease(ctx, operator)
	var ne *locks.NodeError
	if n != 2 || !errors.As(err, &ne) || ne.Node != 1 {
		t.Fatalf("ForceRelease with node 1 down = %d, %v; want 2 keys deleted and node 1's *NodeError", n, err)
	}
	for _, i := range []int{0, 2} {
		if got := b.Server(i).Exists("force:redlock"); got {
			t.Errorf("node %d still has the key after ForceRelease", i)
		}
	}
}

// TestForceReleaseRedlockWatchdogLearnsAtItsRenewal: a live
// RedlockWatchdog holder whose keys ForceRelease deleted on every node
// learns of it at its next renewal, which a majority refuses (its key is
// gone there) and which sets nothing again: its lease is lost, and
// another client takes the lock.
func TestForceReleaseRedlockWatchdogLearnsAtItsRenewal(t *testing.T) {
	b := lockstest.StartMiniredis(t, 3)
	ctx := context.Background()
	o := locks.Options{TTL: b.TTL(), Clock: b.Clock(), Retry: locks.Retry{Attempts: 1}, NodeTimeout: b.TTL() / 2}
	mk := func() locks.Locker {
		l, err := locks.NewRedlockWatchdog(b.Connect(t), "force:rlw", o)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	holder, other := mk(), mk()
	l, err := holder.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := locks.ForceRelease(ctx, mk()); n != 3 || err != nil {
		t.Fatalf("ForceRelease = %d, %v; want 3, nil", n, err)
	}
	b.Advance(t, b.TTL()/2) // past a renewal
	select {
	case <-l.Done():
	case <-time.After(10 * time.Second): // the renewal runs in the lock's own goroutine
		t.Fatal("the holder's Done is still open 10s after a refused renewal was due")
	}
	if err := l.Err(); !errors.Is(err, locks.ErrLockLost) {
		t.Errorf("holder's Err after its renewal found the keys gone = %v, want ErrLockLost", err)
	}
	l2, err := other.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire by another client after the holder lost the lock = %v, want a grant", err)
	}
	if err := other.Release(ctx, l2); err != nil {
		t.Errorf("Release = %v", err)
	}
}

// ExampleForceRelease: an operator evicts the holder of a lock whose
// process is known dead, with a Locker built as the holders' are. This
// breaks mutual exclusion if the holder is in fact alive.
func ExampleForceRelease() {
	m, rdb := exampleRedis()
	defer m.Close()
	defer rdb.Close()
	ctx := context.Background()
	opts := locks.Options{TTL: time.Minute}
	holder, _ := locks.NewBasic(rdb, "reports:nightly", opts)
	lease, _ := holder.Acquire(ctx)

	operator, _ := locks.NewBasic(rdb, "reports:nightly", opts)
	n, err := locks.ForceRelease(ctx, operator)
	fmt.Println("keys deleted:", n, err)
	next, _ := locks.NewBasic(rdb, "reports:nightly", opts)
	_, err = next.Acquire(ctx)
	fmt.Println("another client acquired:", err == nil)
	fmt.Println("the evicted holder's release:", holder.Release(ctx, lease))
	// Output:
	// keys deleted: 1 <nil>
	// another client acquired: true
	// the evicted holder's release: release "reports:nightly": locks: lock not held
}

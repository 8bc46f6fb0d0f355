package locks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
)

// heldWaiter is a user's ReplicaWaiter over miniredis (which has no WAIT):
// every WAIT blocks until the test answers it with a replica count.
type heldWaiter struct {
	*redis.Client
	asked  chan struct{}
	answer chan int64
}

func (w *heldWaiter) Session(context.Context, string) (locks.Session, func(), error) {
	c := w.Conn()
	return heldSession{c, w}, func() { _ = c.Close() }, nil
}

// heldSession is one pinned connection whose WAIT the test answers.
type heldSession struct {
	*redis.Conn
	w *heldWaiter
}

func (s heldSession) Wait(ctx context.Context, _ int, _ time.Duration) *redis.IntCmd {
	s.w.asked <- struct{}{}
	cmd := redis.NewIntCmd(ctx, "wait")
	cmd.SetVal(<-s.w.answer)
	return cmd
}

// TestWaitReplicasUserSeam: a seam of the user's own (ReplicaWaiter) pins
// the connection; a grant counts when WAIT answers enough replicas, and an
// Extend moves the lease's validity only once WAIT confirms it: while the
// WAIT is pending the lease keeps the validity of its last confirmed write
// (a promoted replica may hold only that), and an Extend confirmed by too
// few loses the lease and gives the key back.
func TestWaitReplicasUserSeam(t *testing.T) {
	m := miniredis.RunT(t)
	w := &heldWaiter{Client: redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true}),
		asked: make(chan struct{}), answer: make(chan int64)}
	t.Cleanup(func() { w.Close() })
	clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
	t.Cleanup(clk.Close)
	b, err := locks.NewBasic(w, "k", locks.Options{TTL: 2 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	got := make(chan error, 1)
	var l *locks.Lease
	go func() { var err error; l, err = b.Acquire(ctx); got <- err }()
	<-w.asked
	w.answer <- 1
	if err := <-got; err != nil {
		t.Fatalf("Acquire with WAIT answering 1 = %v", err)
	}
	if err := clk.Advance(300 * time.Millisecond); err != nil { // the validity runs down: a counted extension would raise it
		t.Fatal(err)
	}
	before := l.Validity()
	go func() { got <- b.Extend(ctx, l) }()
	<-w.asked
	if during := l.Validity(); during > before {
		t.Errorf("Validity() while the extension's WAIT is pending = %v, up from %v: an unconfirmed extension counted", during, before)
	}
	w.answer <- 0
	if err := <-got; !errors.Is(err, locks.ErrNotReplicated) {
		t.Errorf("Extend with WAIT answering 0 = %v, want ErrNotReplicated", err)
	}
	if err := l.Err(); !errors.Is(err, locks.ErrLockLost) {
		t.Errorf("Err() after an unconfirmed extension = %v, want ErrLockLost", err)
	}
	if m.Exists("k") {
		t.Error("the key of the lost lease is still there, want it given back")
	}
}

// TestWaitReplicasReentrantPartialRelease: with WaitReplicas, a partial
// release (which refreshes the TTL on the primary with no WAIT after it)
// leaves the holding's validity where its last confirmed write put it;
// an unconfirmed re-entry is taken back and fails with ErrNotReplicated.
func TestWaitReplicasReentrantPartialRelease(t *testing.T) {
	m := miniredis.RunT(t)
	w := &heldWaiter{Client: redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true}),
		asked: make(chan struct{}), answer: make(chan int64)}
	t.Cleanup(func() { w.Close() })
	clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
	t.Cleanup(clk.Close)
	re, err := locks.NewReentrant(w, "re", locks.Options{TTL: 2 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	acquire := func(acked int64) (*locks.Lease, error) {
		type res struct {
			l   *locks.Lease
			err error
		}
		got := make(chan res, 1)
		go func() { l, err := re.Acquire(ctx); got <- res{l, err} }()
		<-w.asked
		w.answer <- acked
		r := <-got
		return r.l, r.err
	}
	outer, err := acquire(1)
	if err != nil {
		t.Fatalf("Acquire = %v", err)
	}
	inner, err := acquire(1)
	if err != nil {
		t.Fatalf("re-entry = %v", err)
	}
	if _, err := acquire(0); !errors.Is(err, locks.ErrNotReplicated) {
		t.Errorf("unconfirmed re-entry = %v, want ErrNotReplicated", err)
	}
	if err := clk.Advance(300 * time.Millisecond); err != nil { // the validity runs down: a counted refresh would raise it
		t.Fatal(err)
	}
	before := outer.Validity()
	if err := re.Release(ctx, inner); err != nil {
		t.Fatalf("Release(inner) = %v", err)
	}
	if after := outer.Validity(); after > before {
		t.Errorf("Validity() after a partial release = %v, up from %v: an unconfirmed TTL refresh counted", after, before)
	}
	if err := re.Release(ctx, outer); err != nil {
		t.Errorf("Release(outer) = %v; want nil (the unconfirmed re-entry was taken back)", err)
	}
	if m.Exists("re") {
		t.Error("the hash is still there after the last release")
	}
}

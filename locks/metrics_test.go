package locks_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
)

// TestEveryPatternHonoursMetrics: Options.Metrics counts the attempts,
// grants, wait times, failures and releases of every pattern.
func TestEveryPatternHonoursMetrics(t *testing.T) {
	for _, p := range patterns {
		t.Run(p.name, func(t *testing.T) {
			nodes := make([]locks.Redis, p.nodes)
			for i := range nodes {
				rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
				t.Cleanup(func() { rdb.Close() })
				nodes[i] = rdb
			}
			mk := func(ms *locks.Metrics) locks.Locker {
				l, err := p.new(nodes, "metrics:"+p.name, locks.Options{TTL: time.Minute, Metrics: ms, Retry: locks.Retry{Attempts: 1}})
				if err != nil {
					t.Fatal(err)
				}
				return l
			}
			ms, other := &locks.Metrics{}, &locks.Metrics{}
			holder, rival := mk(ms), mk(other)
			l, err := holder.Acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := rival.Acquire(context.Background()); err == nil || errors.Is(err, locks.ErrPermanent) {
				t.Fatalf("rival Acquire = %v, want taken", err)
			}
			if err := holder.Release(context.Background(), l); err != nil {
				t.Fatal(err)
			}
			got, want := ms.Snapshot(), locks.Snapshot{Acquired: 1, Attempts: 1, Released: 1}
			if got != want {
				t.Errorf("holder's metrics = %+v, want %+v", got, want)
			}
			if n := ms.Waits.Snapshot().Count; n != 1 {
				t.Errorf("holder's wait histogram counts %d, want 1", n)
			}
			if got := other.Snapshot(); got.Failed != 1 || got.Attempts != 1 {
				t.Errorf("rival's metrics = %+v, want 1 attempt, 1 failure", got)
			}
		})
	}
}

// TestWatchdogLostToWaitCounts: a Watchdog renewal that WAIT confirms on
// too few replicas loses the lease, and Metrics counts that loss (it read
// 0: the failed renewal's error ended the holding with nothing counted).
// Over miniredis a user's ReplicaWaiter answers WAIT; over redis-server the
// replica is SIGSTOPped.
func TestWatchdogLostToWaitCounts(t *testing.T) {
	t.Run("miniredis", func(t *testing.T) {
		m := miniredis.RunT(t)
		w := &heldWaiter{Client: redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1}),
			asked: make(chan struct{}), answer: make(chan int64)}
		t.Cleanup(func() { w.Close() })
		clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
		t.Cleanup(clk.Close)
		ms := &locks.Metrics{}
		wd, err := locks.NewWatchdog(w, "k", locks.Options{TTL: 3 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond, Clock: clk, Metrics: ms})
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan error, 1)
		var l *locks.Lease
		go func() { var err error; l, err = wd.Acquire(context.Background()); got <- err }()
		<-w.asked
		w.answer <- 1
		if err := <-got; err != nil {
			t.Fatalf("Acquire with WAIT answering 1 = %v", err)
		}
		go func() { got <- clk.Advance(time.Second + time.Millisecond) }() // past RenewEvery (TTL/3)
		<-w.asked
		w.answer <- 0
		if err := <-got; err != nil {
			t.Fatal(err)
		}
		select {
		case <-l.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("Done still open after a renewal WAIT confirmed on no replica")
		}
		if s := ms.Snapshot(); s.Lost != 1 {
			t.Errorf("metrics after a renewal lost to WAIT = %+v, want Lost 1", s)
		}
	})
	t.Run("redis-server", func(t *testing.T) {
		rs := startReplicaSet(t, direct)
		ms := &locks.Metrics{}
		wd, err := locks.NewWatchdog(rs.pc, "wait:lost:metrics", locks.Options{TTL: time.Second, WaitReplicas: 1, WaitTimeout: 50 * time.Millisecond, Metrics: ms})
		if err != nil {
			t.Fatal(err)
		}
		l, err := wd.Acquire(context.Background())
		if err != nil {
			t.Fatalf("Acquire = %v", err)
		}
		syscall.Kill(rs.replica.Pid(), syscall.SIGSTOP)
		defer syscall.Kill(rs.replica.Pid(), syscall.SIGCONT)
		select {
		case <-l.Done():
		case <-time.After(10 * time.Second):
			t.Fatal("Done still open 10s after the replica stopped acknowledging renewals")
		}
		if err := l.Err(); !errors.Is(err, locks.ErrNotReplicated) {
			t.Fatalf("Err() = %v, want ErrNotReplicated", err)
		}
		if s := ms.Snapshot(); s.Lost != 1 {
			t.Errorf("metrics after a renewal lost to WAIT = %+v, want Lost 1", s)
		}
	})
}

// TestReentrantAndServiceLostToWaitCount: a Reentrant Extend and a Service
// renewal that WAIT confirms on too few replicas lose the lease, and
// Metrics counts that loss once, as a Watchdog's does (both read Lost 0:
// the failed write's error ended the holding uncounted). Over miniredis a
// user's ReplicaWaiter answers WAIT; over redis-server the replica is
// SIGSTOPped.
func TestReentrantAndServiceLostToWaitCount(t *testing.T) {
	for _, name := range []string{"Reentrant", "Service"} {
		t.Run(name+"/miniredis", func(t *testing.T) {
			m := miniredis.RunT(t)
			w := &heldWaiter{Client: redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true}),
				asked: make(chan struct{}), answer: make(chan int64)}
			t.Cleanup(func() { w.Close() })
			clk := clocktest.NewManualClock(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
			t.Cleanup(clk.Close)
			ms := &locks.Metrics{}
			lk := newWaitingReentrant(t, name, w, locks.Options{TTL: 3 * time.Second, WaitReplicas: 1, WaitTimeout: 100 * time.Millisecond, Clock: clk, Metrics: ms})
			got := make(chan error, 1)
			var l *locks.Lease
			go func() { var err error; l, err = lk.Acquire(context.Background()); got <- err }()
			<-w.asked
			w.answer <- 1
			if err := <-got; err != nil {
				t.Fatalf("Acquire with WAIT answering 1 = %v", err)
			}
			if name == "Service" {
				go func() { got <- clk.Advance(time.Second + time.Millisecond) }() // past RenewEvery (TTL/3)
			} else {
				go func() { got <- lk.(*locks.Reentrant).Extend(context.Background(), l) }()
			}
			<-w.asked
			w.answer <- 0
			err := <-got
			if name == "Reentrant" && !errors.Is(err, locks.ErrNotReplicated) {
				t.Errorf("Extend with WAIT answering 0 = %v, want ErrNotReplicated", err)
			} else if name == "Service" && err != nil {
				t.Fatal(err)
			}
			awaitLostOnce(t, l, ms)
		})
		t.Run(name+"/redis-server", func(t *testing.T) {
			rs := startReplicaSet(t, direct)
			ms := &locks.Metrics{}
			lk := newWaitingReentrant(t, name, rs.pc, locks.Options{TTL: time.Second, WaitReplicas: 1, WaitTimeout: 50 * time.Millisecond, Metrics: ms})
			l, err := lk.Acquire(context.Background())
			if err != nil {
				t.Fatalf("Acquire = %v", err)
			}
			syscall.Kill(rs.replica.Pid(), syscall.SIGSTOP)
			defer syscall.Kill(rs.replica.Pid(), syscall.SIGCONT)
			if name == "Reentrant" {
				if err := lk.(*locks.Reentrant).Extend(context.Background(), l); !errors.Is(err, locks.ErrNotReplicated) {
					t.Errorf("Extend with the replica stopped = %v, want ErrNotReplicated", err)
				}
			}
			awaitLostOnce(t, l, ms)
			if err := l.Err(); !errors.Is(err, locks.ErrNotReplicated) {
				t.Errorf("Err() = %v, want ErrNotReplicated", err)
			}
			time.Sleep(1500 * time.Millisecond) // past the validity: nothing counts the same loss again
			if s := ms.Snapshot(); s.Lost != 1 {
				t.Errorf("metrics a TTL after the loss = %+v, want Lost 1", s)
			}
		})
	}
}

// newWaitingReentrant builds the Reentrant or Service the test names.
func newWaitingReentrant(t *testing.T, name string, r locks.Redis, o locks.Options) locks.Locker {
	t.Helper()
	var lk locks.Locker
	var err error
	if name == "Service" {
		lk, err = locks.NewService(r, "wait:lost:"+name, o)
	} else {
		lk, err = locks.NewReentrant(r, "wait:lost:"+name, o)
	}
	if err != nil {
		t.Fatal(err)
	}
	return lk
}

// awaitLostOnce waits for l's Done and checks that Metrics counted one loss.
func awaitLostOnce(t *testing.T, l *locks.Lease, ms *locks.Metrics) {
	t.Helper()
	select {
	case <-l.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("Done still open 10s after WAIT confirmed a write on too few replicas")
	}
	if s := ms.Snapshot(); s.Lost != 1 {
		t.Errorf("metrics after a lease lost to WAIT = %+v, want Lost 1", s)
	}
}

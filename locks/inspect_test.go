package locks

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/locksim/locksim/internal/lockbridge"
	"github.com/redis/go-redis/v9"
)

// extClosedWithin reports whether ch is closed within d.
func extClosedWithin(ch <-chan struct{}, d time.Duration) bool {
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// TestInspect sets up one holding of every kind and reads it back.
func TestInspect(t *testing.T) {
	e := extMini(t)
	ctx := context.Background()
	clk := newExtClock(e.mr)
	o := extStepOpts(clk, "i", 1)
	r := e.client(t)
	setups := []struct {
		kind Kind
		key  string
		hold func(t *testing.T) // takes the holdings
		want Info               // Holder tokens are checked by count only
	}{
		{KindBasic, "b", func(t *testing.T) { extAcquire(t, extMust(NewBasic(r, "b", o))) },
			Info{Holders: []Holder{{TTL: time.Second, Count: 1}}}},
		{KindReentrant, "re", func(t *testing.T) {
			re := extMust(NewReentrant(r, "re", o))
			extAcquire(t, re)
			extAcquire(t, re)
		}, Info{Holders: []Holder{{TTL: time.Second, Count: 2}}}},
		{KindFenced, "fe", func(t *testing.T) { extAcquire(t, extMust(NewFenced(r, "fe", o))) },
			Info{Holders: []Holder{{TTL: time.Second, Count: 1}}, Fence: 1}},
		{KindFair, "fa", func(t *testing.T) {
			f := extMust(NewFair(r, "fa", o))
			extAcquire(t, f)
			for _, w := range []string{"w1", "w2"} {
				_, _ = f.poll(ctx, w)
			}
		}, Info{Holders: []Holder{{TTL: time.Second, Count: 1}}, Queue: 2}},
		{KindRW, "rw", func(t *testing.T) {
			rw := extMust(NewRWLock(r, "rw", o))
			extAcquire(t, rw.Reader())
			extAcquire(t, rw.Reader())
			_, _ = rw.tryWrite(ctx, "writer")
		}, Info{Holders: []Holder{{TTL: time.Second, Count: 1, Read: true}, {TTL: time.Second, Count: 1, Read: true}}, Queue: 1}},
		{KindSemaphore, "se", func(t *testing.T) { extAcquire(t, extMust(NewSemaphore(r, "se", 3, o))) },
			Info{Holders: []Holder{{TTL: time.Second, Count: 1}}}},
	}
	for _, s := range setups {
		t.Run(string(s.kind), func(t *testing.T) {
			if got := extInspect(t, r, s.key, s.kind); got.Held() || got.Queue != 0 {
				t.Fatalf("Inspect before any holding = %+v, want free", got)
			}
			s.hold(t)
			got := extInspect(t, r, s.key, s.kind)
			for i := range got.Holders {
				if got.Holders[i].Token == "" {
					t.Errorf("holder %d has no token", i)
				}
				got.Holders[i].Token = ""
			}
			s.want.Key, s.want.Kind = s.key, s.kind
			if diff := cmp.Diff(s.want, got); diff != "" {
				t.Errorf("Inspect(%q, %s) mismatch (-want +got):\n%s", s.key, s.kind, diff)
			}
		})
	}
	t.Run("ttl moves", func(t *testing.T) {
		clk.Advance(400 * time.Millisecond)
		if got := extInspect(t, r, "b", KindBasic).Holders[0].TTL; got != 600*time.Millisecond {
			t.Errorf("TTL 400ms on = %v, want 600ms", got)
		}
		clk.Advance(time.Second)
		if got := extInspect(t, r, "fa", KindFair); got.Held() || got.Queue != 0 {
			t.Errorf("fair lock after every TTL ran out = %+v, want free with no live waiters", got)
		}
	})
}

func TestInspectErrors(t *testing.T) {
	r := extMini(t).client(t)
	var oe *OptionError
	if _, err := Inspect(context.Background(), (*redis.Client)(nil), "k", KindBasic); !errors.As(err, &oe) || oe.Field != "Redis" {
		t.Errorf("Inspect(typed-nil client) = %v, want an OptionError on Redis", err)
	}
	if l, _ := newKitLease(lockbridge.LeaseSpec{Key: "k", Token: "t", Fence: 0, Count: 1, Start: time.Now(), Valid: time.Millisecond}); !extClosedWithin(l.Done(), 5*time.Second) {
		t.Errorf("NewLease with a nil clock: Done not closed 5s after a 1ms validity")
	}
	if _, err := Inspect(context.Background(), r, "k", Kind("mutex")); !errors.As(err, &oe) || oe.Field != "kind" {
		t.Errorf("Inspect(kind mutex) = %v, want an OptionError on kind", err)
	}
	if _, err := Inspect(context.Background(), r, "", KindBasic); !errors.As(err, &oe) || oe.Field != "key" {
		t.Errorf(`Inspect("") = %v, want an OptionError on key`, err)
	}
}

func extMust[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func extAcquire(t *testing.T, l Locker) *Lease {
	t.Helper()
	lease, err := l.Acquire(context.Background())
	if err != nil {
		t.Fatalf("Acquire = %v", err)
	}
	return lease
}

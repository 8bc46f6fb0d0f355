package locks_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// fencing are the renewing patterns that issue fencing tokens with
// Options.Fencing.
var fencing = []struct {
	name string
	new  func(r locks.Redis, name string, o locks.Options) (locks.Locker, error)
}{
	{"Watchdog", func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewWatchdog(r, n, o)
	}},
	{"Service", func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewService(r, n, o)
	}},
}

// TestFencingTokensIncreaseAcrossHolders: on a real redis-server, each new
// holding of a fenced Watchdog or Service gets a token above every earlier
// one, the counter is FencedCounterKey(name) and never expires, and the
// lock lives at FencedLockKey(name).
func TestFencingTokensIncreaseAcrossHolders(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, p := range fencing {
		t.Run(p.name, func(t *testing.T) {
			name := "fencing:" + p.name
			if err := rdb.Set(ctx, locks.FencedCounterKey(name), 41, 0).Err(); err != nil {
				t.Fatal(err)
			}
			var last int64 = 41
			for i := range 3 {
				l, err := p.new(rdb, name, locks.Options{TTL: 2 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				lease, err := l.Acquire(ctx)
				if err != nil {
					t.Fatalf("Acquire #%d: %v", i+1, err)
				}
				if lease.Fence <= last {
					t.Errorf("Acquire #%d: Fence = %d, want > %d", i+1, lease.Fence, last)
				}
				last = lease.Fence
				if lease.Key != locks.FencedLockKey(name) {
					t.Errorf("Lease.Key = %q, want %q", lease.Key, locks.FencedLockKey(name))
				}
				if n := rdb.Exists(ctx, locks.FencedLockKey(name)).Val(); n != 1 {
					t.Errorf("lock key %s missing while held", locks.FencedLockKey(name))
				}
				if err := l.Release(ctx, lease); err != nil {
					t.Fatal(err)
				}
			}
			if ttl := rdb.PTTL(ctx, locks.FencedCounterKey(name)).Val(); ttl != -1 {
				t.Errorf("PTTL of the counter = %v, want -1 (no expiry)", ttl)
			}
			if got := rdb.Get(ctx, locks.FencedCounterKey(name)).Val(); got != "44" {
				t.Errorf("counter = %s after 3 holdings from 41, want 44", got)
			}
		})
	}
}

// TestServiceFencingReentryKeepsToken: a re-entry of a fenced Service is
// part of the same holding and keeps its token; no new one is issued.
func TestServiceFencingReentryKeepsToken(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	s, err := locks.NewService(rdb, "fencing:reentry", locks.Options{TTL: 2 * time.Second, Fencing: true})
	if err != nil {
		t.Fatal(err)
	}
	a, err := s.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if a.Fence == 0 || b.Fence != a.Fence || b.Count != 2 {
		t.Errorf("re-entry: Fence %d, Count %d after first Fence %d; want the same non-zero token, Count 2", b.Fence, b.Count, a.Fence)
	}
	if got := rdb.Get(ctx, locks.FencedCounterKey("fencing:reentry")).Val(); got != "1" {
		t.Errorf("counter = %s after one holding, want 1", got)
	}
	if err := errors.Join(s.Release(ctx, b), s.Release(ctx, a)); err != nil {
		t.Fatal(err)
	}
	if n := rdb.Exists(ctx, locks.FencedLockKey("fencing:reentry")).Val(); n != 0 {
		t.Errorf("lock key still exists after the last release")
	}
}

// TestFencingBadCounterLeavesNothing: a counter that cannot be incremented
// (a list, or a string that is not an integer) fails Acquire at once with a
// permanent error, and writes neither the lock nor the counter.
func TestFencingBadCounterLeavesNothing(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	bad := map[string]func(key string) error{
		"list":   func(k string) error { return rdb.LPush(ctx, k, "x").Err() },
		"string": func(k string) error { return rdb.Set(ctx, k, "abc", 0).Err() },
	}
	for _, p := range fencing {
		for kind, set := range bad {
			t.Run(p.name+"/"+kind, func(t *testing.T) {
				name := "fencing:bad:" + p.name + ":" + kind
				if err := set(locks.FencedCounterKey(name)); err != nil {
					t.Fatal(err)
				}
				l, err := p.new(rdb, name, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
				if err != nil {
					t.Fatal(err)
				}
				err = acquireWithin(t, l, 5*time.Second)
				if !errors.Is(err, locks.ErrPermanent) {
					t.Fatalf("Acquire with a %s counter: %v, want ErrPermanent", kind, err)
				}
				if n := rdb.Exists(ctx, locks.FencedLockKey(name)).Val(); n != 0 {
					t.Errorf("lock key %s left behind by the failed Acquire", locks.FencedLockKey(name))
				}
				if typ := rdb.Type(ctx, locks.FencedCounterKey(name)).Val(); typ != kind {
					t.Errorf("counter TYPE = %q, want %q (untouched)", typ, kind)
				}
			})
		}
	}
}

package locks_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

var probed = []struct {
	name string
	key  func(name string) string // the lock key the pattern writes
	new  func(r locks.Redis, name string, o locks.Options) (locks.Locker, error)
}{
	{"Basic", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, n, o) }},
	{"Watchdog", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			return locks.NewWatchdog(r, n, o)
		}},
}

// scripted are the patterns whose acquisition runs a script, so a key of
// the wrong type or a user without scripting rights fails it at once; the
// plain SET NX patterns (probed) check both with a probe before their
// first write.
var scripted = []struct {
	name string
	key  func(name string) string // the lock key the pattern writes
	new  func(r locks.Redis, name string, o locks.Options) (locks.Locker, error)
}{
	{"Reentrant", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			return locks.NewReentrant(r, n, o)
		}},
	{"Service", func(n string) string { return n },
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, n, o) }},
	{"Fenced", locks.FencedLockKey,
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, n, o) }},
	{"WatchdogFenced", locks.FencedLockKey,
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			o.Fencing = true
			return locks.NewWatchdog(r, n, o)
		}},
	{"ServiceFenced", locks.FencedLockKey,
		func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			o.Fencing = true
			return locks.NewService(r, n, o)
		}},
}

// acquireWithin runs Acquire with ctx and fails the test if it has not
// returned within d (it would retry forever on a misclassified error).
func acquireWithin(t *testing.T, l locks.Locker, d time.Duration) error {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		lease, err := l.Acquire(ctx)
		if err == nil {
			_ = l.Release(context.Background(), lease)
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		cancel()
		err := <-done
		t.Fatalf("Acquire still retrying %v after it met the error (then %v): want a permanent error at once", d, err)
		return err
	}
}

// wantPermanent checks err is a permanent Redis error naming code, with the
// Redis error reply in its chain.
func wantPermanent(t *testing.T, what string, err error, code string) {
	t.Helper()
	var re redis.Error
	switch {
	case !errors.Is(err, locks.ErrPermanent):
		t.Errorf("%s: Acquire = %v, want ErrPermanent", what, err)
	case !errors.As(err, &re) || !strings.Contains(re.Error(), code):
		t.Errorf("%s: Acquire = %v, want a redis.Error %s in its chain", what, err, code)
	case errors.Is(err, locks.ErrNotAcquired):
		t.Errorf("%s: Acquire = %v, which also reads as \"taken\"", what, err)
	}
}

// TestWrongTypeKeyIsPermanent: a lock key holding a list ends Acquire at
// once with WRONGTYPE, even with a context that never ends and unbounded
// retries, and the key is left as it was.
func TestWrongTypeKeyIsPermanent(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, p := range append(scripted, probed...) {
		t.Run(p.name, func(t *testing.T) {
			name := "wrongtype:" + p.name
			if err := rdb.LPush(ctx, p.key(name), "x").Err(); err != nil {
				t.Fatal(err)
			}
			l, err := p.new(rdb, name, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
			if err != nil {
				t.Fatal(err)
			}
			wantPermanent(t, "key holds a list", acquireWithin(t, l, 5*time.Second), "WRONGTYPE")
			if typ := rdb.Type(ctx, p.key(name)).Val(); typ != "list" {
				t.Errorf("TYPE %s = %q after the failed Acquire, want list (untouched)", p.key(name), typ)
			}
		})
	}
}

// TestNoScriptingIsPermanent: an ACL user without @scripting gets NOPERM
// from Acquire at once, and nothing is written.
func TestNoScriptingIsPermanent(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	ctx := context.Background()
	admin := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { admin.Close() })
	if err := admin.Do(ctx, "ACL", "SETUSER", "noscript", "on", ">pw", "~*", "+@all", "-@scripting").Err(); err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, Username: "noscript", Password: "pw", DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, p := range append(scripted, probed...) {
		t.Run(p.name, func(t *testing.T) {
			name := "noscript:" + p.name
			l, err := p.new(rdb, name, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
			if err != nil {
				t.Fatal(err)
			}
			wantPermanent(t, "user without @scripting", acquireWithin(t, l, 5*time.Second), "NOPERM")
			if n := admin.Exists(ctx, p.key(name)).Val(); n != 0 {
				t.Errorf("EXISTS %s = %d after the refused Acquire, want 0", p.key(name), n)
			}
		})
	}
}

// TestRedlockOutageIsNotTaken: with every node stopped, Acquire fails with
// ErrUnavailable and per-node detail, not with ErrQuorum ("taken"), so
// code that skips work when the lock is taken does not skip it silently
// during an outage.
func TestRedlockOutageIsNotTaken(t *testing.T) {
	ss := redistest.Require(t, 3)
	var nodes []locks.Redis
	for _, s := range ss {
		c := redis.NewClient(&redis.Options{Addr: s.Addr, DialerRetries: 1, MaxRetries: -1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		nodes = append(nodes, c)
	}
	rl, err := locks.NewRedlock(nodes, "outage", locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: 2}})
	if err != nil {
		t.Fatal(err)
	}
	redistest.Stop(ss)
	_, err = rl.Acquire(context.Background())
	if !errors.Is(err, locks.ErrUnavailable) || errors.Is(err, locks.ErrQuorum) {
		t.Fatalf("Acquire with every node stopped = %v, want ErrUnavailable and not ErrQuorum", err)
	}
	var qe *locks.QuorumError
	if !errors.As(err, &qe) || len(qe.Nodes) != 3 {
		t.Fatalf("Acquire with every node stopped = %v, want a *QuorumError with 3 node errors", err)
	}
}

// TestFencedBadCounterLeavesNothing: a Fenced acquisition whose INCR fails
// (the counter is not an integer, or not a string) fails at once with the
// Redis error and leaves no lock key behind.
func TestFencedBadCounterLeavesNothing(t *testing.T) {
	srv := redistest.Require(t, 1)[0]
	rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	ctx := context.Background()
	for _, tc := range []struct {
		what string
		set  func(key string) error
		code string
	}{
		{"not an integer", func(k string) error { return rdb.Set(ctx, k, "x", 0).Err() }, "not an integer"},
		{"a list", func(k string) error { return rdb.LPush(ctx, k, "x").Err() }, "WRONGTYPE"},
	} {
		t.Run(tc.what, func(t *testing.T) {
			name := "badcounter:" + strings.ReplaceAll(tc.what, " ", "-")
			if err := tc.set(locks.FencedCounterKey(name)); err != nil {
				t.Fatal(err)
			}
			f, err := locks.NewFenced(rdb, name, locks.Options{TTL: time.Minute, Retry: locks.Retry{Attempts: -1}})
			if err != nil {
				t.Fatal(err)
			}
			wantPermanent(t, "counter "+tc.what, acquireWithin(t, f, 5*time.Second), tc.code)
			if n := rdb.Exists(ctx, locks.FencedLockKey(name)).Val(); n != 0 {
				t.Errorf("EXISTS %s = %d after the failed Acquire, want 0 (no orphaned lock for the TTL)", locks.FencedLockKey(name), n)
			}
		})
	}
}

// TestWrongTypeQueueAndRWKeysArePermanent: a fair lock's lock key, or a
// read-write lock's writer or intent key, holding a hash ends Acquire (RLock,
// Lock) at once with WRONGTYPE, on miniredis and on redis-server, even with
// unbounded retries, and leaves the key as it was: these keys' presence
// reads as "held", so a key of the wrong type read as taken for ever.
func TestWrongTypeQueueAndRWKeysArePermanent(t *testing.T) {
	fair := func(fencing bool) func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
		return func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			o.Fencing = fencing
			return locks.NewFair(r, n, o)
		}
	}
	rw := func(read bool) func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
		return func(r locks.Redis, n string, o locks.Options) (locks.Locker, error) {
			l, err := locks.NewRWLock(r, n, o)
			if err != nil || !read {
				return l.Writer(), err
			}
			return l.Reader(), nil
		}
	}
	fairLock := func(n string) string { k, _, _, _ := locks.FairKeys(n); return k }
	writer := func(n string) string { k, _, _, _ := locks.RWKeys(n); return k }
	intent := func(n string) string { _, _, k, _ := locks.RWKeys(n); return k }
	cases := []struct {
		name string
		key  func(name string) string // the key made a hash
		new  func(r locks.Redis, name string, o locks.Options) (locks.Locker, error)
	}{
		{"Fair/lock", fairLock, fair(false)},
		{"FairFenced/lock", fairLock, fair(true)},
		{"RWLock.Lock/writer", writer, rw(false)},
		{"RWLock.RLock/writer", writer, rw(true)},
		{"RWLock.Lock/intent", intent, rw(false)},
		{"RWLock.RLock/intent", intent, rw(true)},
	}
	for _, b := range wrongTypeBackends(t) {
		for _, tc := range cases {
			t.Run(b.name+"/"+tc.name, func(t *testing.T) {
				ctx, name := context.Background(), "wrongtype:"+b.name+":"+tc.name
				if err := b.rdb.HSet(ctx, tc.key(name), "x", "1").Err(); err != nil {
					t.Fatal(err)
				}
				l, err := tc.new(b.rdb, name, locks.Options{TTL: time.Second, Retry: locks.Retry{Attempts: -1}})
				if err != nil {
					t.Fatal(err)
				}
				wantPermanent(t, tc.name+" holds a hash", acquireWithin(t, l, 5*time.Second), "WRONGTYPE")
				if typ := b.rdb.Type(ctx, tc.key(name)).Val(); typ != "hash" {
					t.Errorf("TYPE %s = %q after the failed Acquire, want hash (untouched)", tc.key(name), typ)
				}
			})
		}
	}
}

// wrongTypeBackends are a miniredis and a redis-server (where installed),
// each with a client closed when the test ends.
func wrongTypeBackends(t *testing.T) []struct {
	name string
	rdb  *redis.Client
} {
	m := miniredis.RunT(t)
	out := []struct {
		name string
		rdb  *redis.Client
	}{{"miniredis", redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})}}
	if redistest.Available() {
		srv := redistest.Require(t, 1)[0]
		out = append(out, struct {
			name string
			rdb  *redis.Client
		}{"redis-server", redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})})
	}
	for _, b := range out {
		t.Cleanup(func() { b.rdb.Close() })
	}
	return out
}

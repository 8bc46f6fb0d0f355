package locks

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// newMultiT returns a MultiLock or fails t.
func newMultiT(t *testing.T, r Redis, keys []string, o Options) *MultiLock {
	t.Helper()
	ml, err := NewMultiLock(r, keys, o)
	if err != nil {
		t.Fatalf("NewMultiLock(%q) = %v", keys, err)
	}
	return ml
}

// TestMultiLockAllOrNone: a MultiLock takes every key or none: with one of
// its keys held, Acquire fails naming it and writes nothing; once free, it
// sets every key to one token; while it holds, a Basic on any key and a
// MultiLock sharing one key are refused, the latter writing nothing.
func TestMultiLockAllOrNone(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		admin := e.client(t)
		n := extName(t)
		a, b, c, d := n+":a", n+":b", n+":c", n+":d"
		o := Options{TTL: 10 * time.Second}
		holder := extMust(NewBasic(e.client(t), b, o))
		hl := extAcquire(t, holder)
		ml := newMultiT(t, e.client(t), []string{a, b, c}, o)
		if _, err := ml.Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Fatalf("Acquire with %q held = %v, want ErrNotAcquired", b, err)
		}
		if k := admin.Exists(ctx, a, c).Val(); k != 0 {
			t.Errorf("EXISTS %s %s = %d after a refused Acquire, want 0 (none written)", a, c, k)
		}
		if err := holder.Release(ctx, hl); err != nil {
			t.Fatal(err)
		}
		l := extAcquire(t, ml)
		for _, k := range []string{a, b, c} {
			if v := admin.Get(ctx, k).Val(); v != l.Token {
				t.Errorf("GET %s = %q, want the lease's token %q", k, v, l.Token)
			}
		}
		if _, err := extMust(NewBasic(e.client(t), c, o)).Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("Basic Acquire(%s) while the MultiLock holds = %v, want ErrNotAcquired", c, err)
		}
		if _, err := newMultiT(t, e.client(t), []string{d, c}, o).Acquire(ctx); !errors.Is(err, ErrNotAcquired) {
			t.Errorf("MultiLock Acquire(%s, %s) = %v, want ErrNotAcquired", d, c, err)
		}
		if k := admin.Exists(ctx, d).Val(); k != 0 {
			t.Errorf("EXISTS %s = %d, want 0", d, k)
		}
		wantTTL(t, ml, l, o.TTL, "the MultiLock's lease")
		if err := ml.Release(ctx, l); err != nil {
			t.Fatalf("Release = %v", err)
		}
		if k := admin.Exists(ctx, a, b, c).Val(); k != 0 {
			t.Errorf("EXISTS after Release = %d, want 0", k)
		}
	})
}

// TestMultiLockOwnerChecked: when one key was lost to another owner,
// Extend changes no key and says ErrNotHeld, TTL says ErrNotHeld, and
// Release deletes only the keys that still hold the lease's token.
func TestMultiLockOwnerChecked(t *testing.T) {
	extBoth(t, func(t *testing.T, e *extEnv) {
		ctx := context.Background()
		admin := e.client(t)
		n := extName(t)
		a, b := n+":a", n+":b"
		o := Options{TTL: 10 * time.Second}
		ml := newMultiT(t, e.client(t), []string{a, b}, o)
		l := extAcquire(t, ml)
		admin.Set(ctx, b, "someone-else", time.Hour)
		if err := ml.ExtendTTL(ctx, l, time.Minute); !errors.Is(err, ErrNotHeld) {
			t.Errorf("ExtendTTL with %s lost = %v, want ErrNotHeld", b, err)
		}
		if d := admin.PTTL(ctx, a).Val(); d > o.TTL {
			t.Errorf("PTTL %s = %v after a refused extension, want at most %v", a, d, o.TTL)
		}
		l2 := func() *Lease {
			admin.Del(ctx, a, b)
			return extAcquire(t, ml)
		}()
		admin.Set(ctx, b, "someone-else", time.Hour)
		if _, err := ml.TTL(ctx, l2); !errors.Is(err, ErrNotHeld) {
			t.Errorf("TTL with %s lost = %v, want ErrNotHeld", b, err)
		}
		admin.Del(ctx, a, b)
		l3 := extAcquire(t, ml)
		admin.Set(ctx, b, "someone-else", time.Hour)
		if err := ml.Release(ctx, l3); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Release with %s lost = %v, want ErrNotHeld", b, err)
		}
		if v := admin.Get(ctx, b).Val(); v != "someone-else" {
			t.Errorf("GET %s = %q after Release, want the other owner's value", b, v)
		}
		if k := admin.Exists(ctx, a).Val(); k != 0 {
			t.Errorf("EXISTS %s = %d after Release, want 0 (it held the lease's token)", a, k)
		}
	})
}

// TestMultiLockCircularWait: two clients that need the same two keys in
// opposite orders each take both at once, over and over, and both finish:
// no circular wait; and never do both hold at once.
func TestMultiLockCircularWait(t *testing.T) {
	e := extReal(t)
	n := extName(t)
	x, y := n+":x", n+":y"
	o := extFastOpts()
	var holding, overlaps atomic.Int32
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	errs := make(chan error, 2)
	for _, keys := range [][]string{{x, y}, {y, x}} {
		ml := newMultiT(t, e.client(t), keys, o)
		wg.Go(func() {
			for range 50 {
				l, err := ml.Acquire(ctx)
				if err != nil {
					errs <- err
					return
				}
				if holding.Add(1) > 1 {
					overlaps.Add(1)
				}
				holding.Add(-1)
				if err := ml.Release(ctx, l); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("a client in opposite order: %v, want 50 acquisitions", err)
	}
	if n := overlaps.Load(); n != 0 {
		t.Errorf("%d overlapping holdings, want 0", n)
	}
}

// TestMultiLockWrongTypeAndOptions: a key of another type fails Acquire at
// once with WRONGTYPE (ErrPermanent), writing nothing; impossible key lists
// and the Owner and Token options are refused at construction.
func TestMultiLockWrongTypeAndOptions(t *testing.T) {
	e := extMini(t)
	ctx := context.Background()
	rdb := e.client(t)
	e.mr.HSet("ml:h", "f", "v")
	o := Options{TTL: time.Second, Retry: Retry{Attempts: -1, Delay: time.Millisecond}}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, err := newMultiT(t, rdb, []string{"ml:a", "ml:h"}, o).Acquire(cctx); !errors.Is(err, ErrPermanent) || cctx.Err() != nil {
		t.Errorf("Acquire with a hash among the keys = %v, want ErrPermanent at once", err)
	}
	if e.mr.Exists("ml:a") {
		t.Error(`"ml:a" was written by a failed Acquire`)
	}
	for _, tc := range []struct {
		keys  []string
		o     Options
		field string
	}{
		{nil, Options{TTL: time.Second}, "keys"},
		{[]string{"a", ""}, Options{TTL: time.Second}, "keys[1]"},
		{[]string{"a", "b", "a"}, Options{TTL: time.Second}, "keys[2]"},
		{[]string{"a"}, Options{TTL: time.Second, Owner: "me"}, "Owner"},
		{[]string{"a"}, Options{TTL: time.Second, Token: "t"}, "Token"},
		{[]string{"a"}, Options{}, "TTL"},
	} {
		_, err := NewMultiLock(rdb, tc.keys, tc.o)
		var oe *OptionError
		if !errors.As(err, &oe) || oe.Field != tc.field {
			t.Errorf("NewMultiLock(%q, %+v) = %v, want an *OptionError on %s", tc.keys, tc.o, err, tc.field)
		}
	}
	if _, err := NewMultiLock(nil, []string{"a"}, Options{TTL: time.Second}); err == nil {
		t.Error("NewMultiLock(nil client) = nil error, want an *OptionError")
	}
}

// TestKeySlot: the hash slots of Redis Cluster's specification (CRC16 of
// the key or of its hash tag, modulo 16384).
func TestKeySlot(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want int
	}{
		{"123456789", 0x31C3 % 16384}, // CRC-16/XMODEM's check value
		{"foo", 12182},
		{"{user1000}.following", keySlot("user1000")},
		{"foo{}{bar}", keySlot("foo{}{bar}")}, // empty tag: the whole key
		{"foo{{bar}}zap", keySlot("{bar")},
		{"foo{bar}{zap}", keySlot("bar")},
		{"", 0},
	} {
		if got := keySlot(tc.key); got != tc.want {
			t.Errorf("keySlot(%q) = %d, want %d", tc.key, got, tc.want)
		}
	}
	if keySlot("foo{}{bar}") == keySlot("bar") {
		t.Error(`keySlot("foo{}{bar}") hashed "bar": an empty first tag must hash the whole key`)
	}
}

package locks_test

import (
	"context"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/clock/clocktest"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest/redistest"
)

// handoffPatterns are the patterns whose refused attempt learns the
// holding's remaining TTL (their acquisition is a script).
var handoffPatterns = []struct {
	name string
	new  func(r locks.Redis, key string, o locks.Options) (locks.Locker, error)
}{
	{"Reentrant", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		return locks.NewReentrant(r, k, o)
	}},
	{"ReentrantFenced", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewReentrant(r, k, o)
	}},
	{"Service", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewService(r, k, o) }},
	{"Fenced", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, k, o) }},
	{"WatchdogFenced", func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		o.Fencing = true
		return locks.NewWatchdog(r, k, o)
	}},
	// A writer holds; the waiter is the next writer, or a reader.
	{"RWLock.Lock", rwHandoff(false)},
	{"RWLock.RLock", rwHandoff(true)},
}

// rwHandoff returns the first locker of the read-write lock's Writer side
// (the holder) and every later one of its Reader side when read is set.
func rwHandoff(read bool) func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
	var n int
	return func(r locks.Redis, k string, o locks.Options) (locks.Locker, error) {
		rw, err := locks.NewRWLock(r, k, o)
		if err != nil {
			return nil, err
		}
		n++
		if read && n%2 == 0 {
			return rw.Reader(), nil
		}
		return rw.Writer(), nil
	}
}

// handoffBackoff is a waiter's backoff, long beside the holder's TTL: a
// waiter that slept it whole would take the lock that much after expiry.
const handoffBackoff = 5 * time.Second

// TestWaiterTakesTheLockAsItExpires: a holder that vanishes (never
// releases, never renews) hands the lock to a waiter as its TTL runs out,
// not up to a backoff later: the refused attempt reads the holding's PTTL,
// and the waiter polls once as it runs out. On miniredis under a manual
// clock (time moves only when the lock code sleeps) the waiter is granted
// one TTL after the holder, plus at most the 1ms the sleep adds for PTTL's
// whole milliseconds and its jitter (under 1/64 of the PTTL+1ms it slept
// toward, at least 1ms), checked at both ends of the jitter's range; on
// redis-server within a generous bound (half the backoff) of the holder's
// expiry.
func TestWaiterTakesTheLockAsItExpires(t *testing.T) {
	for _, p := range handoffPatterns {
		for _, jit := range []extremeJitter{false, true} {
			t.Run("miniredis/"+p.name+"/"+jit.String(), func(t *testing.T) {
				waiterTakesTheLockOnMiniredis(t, p.new, jit)
			})
		}
	}
	if !redistest.Available() {
		return
	}
	srv := redistest.Require(t, 1)[0]
	for _, p := range handoffPatterns {
		t.Run("redis-server/"+p.name, func(t *testing.T) {
			const ttl = 500 * time.Millisecond
			rdb := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
			gone := redis.NewClient(&redis.Options{Addr: srv.Addr, DialerRetries: 1, ContextTimeoutEnabled: true})
			t.Cleanup(func() { rdb.Close() })
			key := "handoff:" + p.name
			holder := mustLocker(t)(p.new(gone, key, locks.Options{TTL: ttl}))
			begin := time.Now()
			l, err := holder.Acquire(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			gone.Close() // the holder vanishes: no renewal, no release
			w := mustLocker(t)(p.new(rdb, key, waiterOpts(ttl, nil)))
			wl, err := w.Acquire(context.Background())
			if err != nil {
				t.Fatalf("waiter's Acquire = %v, want a grant once the holder's TTL ran out", err)
			}
			took := time.Since(begin)
			t.Logf("waiter granted %v after the holder's grant (TTL %v, backoff %v)", took, ttl, handoffBackoff)
			if bound := ttl + handoffBackoff/2; took > bound {
				t.Errorf("waiter granted %v after the holder's grant (TTL %v), want at most %v: it slept its backoff past the expiry", took, ttl, bound)
			}
			_ = w.Release(context.Background(), wl)
			<-l.Done() // the holder's watchdog, if any, has ended
		})
	}
}

// waiterOpts are a waiter's options in the hand-off test: its backoff
// long beside the TTL.
func waiterOpts(ttl time.Duration, clk clock.Clock) locks.Options {
	return locks.Options{TTL: ttl, Clock: clk, RetryStrategy: locks.LimitRetry(locks.ConstantBackoff(handoffBackoff), 3)}
}

// extremeJitter is a Rand whose Int64N draws the least value (false) or
// the greatest (true): the two ends of a waiter's jitter.
type extremeJitter bool

func (e extremeJitter) Token() string { return locks.CryptoRand{}.Token() }

func (e extremeJitter) Int64N(n int64) int64 {
	if e {
		return n - 1
	}
	return 0
}

func (e extremeJitter) String() string {
	if e {
		return "greatest-jitter"
	}
	return "least-jitter"
}

// waiterTakesTheLockOnMiniredis is TestWaiterTakesTheLockAsItExpires on
// miniredis under a manual clock, the waiter drawing its jitter from jit.
func waiterTakesTheLockOnMiniredis(t *testing.T, newLocker func(locks.Redis, string, locks.Options) (locks.Locker, error), jit extremeJitter) {
	const ttl = 300 * time.Millisecond
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	clk := clocktest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
	clk.SleepMoves = true // and drops background work: the holder does not renew
	t.Cleanup(clk.Close)
	const key = "handoff"
	if _, err := mustLocker(t)(newLocker(rdb, key, locks.Options{TTL: ttl, Clock: clk})).Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	begin := clk.Now()
	o := waiterOpts(ttl, clk)
	o.Rand = jit
	w := mustLocker(t)(newLocker(rdb, key, o))
	if _, err := w.Acquire(context.Background()); err != nil {
		t.Fatalf("waiter's Acquire = %v, want a grant once the holder's TTL ran out", err)
	}
	// The refused attempt reads PTTL = ttl; the waiter sleeps toward
	// ttl+1ms, plus a jitter under max((ttl+1ms)/64, 1ms).
	toward := ttl + time.Millisecond
	late := time.Millisecond + max(toward/64, time.Millisecond)
	if took := clk.Since(begin); took < ttl || took > ttl+late {
		t.Errorf("waiter granted %v after the holder (TTL %v, backoff %v), want %v (+ at most %v, PTTL's rounding and the jitter): it slept past the expiry", took, ttl, handoffBackoff, ttl, late)
	}
}

func mustLocker(t *testing.T) func(locks.Locker, error) locks.Locker {
	return func(l locks.Locker, err error) locks.Locker {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
}

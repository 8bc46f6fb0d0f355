package locks_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// recordingStrategy wraps a strategy and records the attempts it was asked
// about.
type recordingStrategy struct {
	s        locks.RetryStrategy
	mu       sync.Mutex
	attempts []int
}

func (r *recordingStrategy) Next(attempt int, rnd locks.Rand) (time.Duration, bool) {
	r.mu.Lock()
	r.attempts = append(r.attempts, attempt)
	r.mu.Unlock()
	return r.s.Next(attempt, rnd)
}

func (r *recordingStrategy) asked() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.attempts)
}

// strategyPatterns build, for every pattern, a locker on one key over rdb.
var strategyPatterns = []struct {
	name string
	new  func(rdb locks.Redis, o locks.Options) (locks.Locker, error)
}{
	{"Basic", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewBasic(r, "rs:basic", o) }},
	{"Reentrant", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewReentrant(r, "rs:re", o) }},
	{"Watchdog", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewWatchdog(r, "rs:wd", o) }},
	{"Service", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewService(r, "rs:se", o) }},
	{"Fenced", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewFenced(r, "rs:fe", o) }},
	{"Redlock", func(r locks.Redis, o locks.Options) (locks.Locker, error) {
		return locks.NewRedlock([]locks.Redis{r}, "rs:rl", o)
	}},
	{"Fair", func(r locks.Redis, o locks.Options) (locks.Locker, error) { return locks.NewFair(r, "rs:fair", o) }},
	{"Semaphore", func(r locks.Redis, o locks.Options) (locks.Locker, error) {
		return locks.NewSemaphore(r, "rs:sem", 1, o)
	}},
	{"RWLock", func(r locks.Redis, o locks.Options) (locks.Locker, error) {
		rw, err := locks.NewRWLock(r, "rs:rw", o)
		if err != nil {
			return nil, err
		}
		return rw.Writer(), nil
	}},
}

// TestRetryStrategyDrivesEveryPattern: an Acquire of a taken lock asks
// Options.RetryStrategy after each failed attempt, in every pattern, and
// stops when it says so: LimitRetry(…, 3) makes three attempts.
func TestRetryStrategyDrivesEveryPattern(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, p := range strategyPatterns {
		t.Run(p.name, func(t *testing.T) {
			holder := mustNew(p.new(rdb, locks.Options{TTL: time.Minute}))
			l, err := holder.Acquire(t.Context())
			if err != nil {
				t.Fatalf("Acquire(holder) = %v", err)
			}
			defer holder.Release(context.Background(), l)
			rec := &recordingStrategy{s: locks.LimitRetry(locks.ConstantBackoff(time.Millisecond), 3)}
			waiter := mustNew(p.new(rdb, locks.Options{TTL: time.Minute, RetryStrategy: rec}))
			if _, err := waiter.Acquire(t.Context()); !errors.Is(err, locks.ErrNotAcquired) && !errors.Is(err, locks.ErrQuorum) {
				t.Fatalf("Acquire(waiter) = %v, want the lock taken", err)
			}
			if got, want := rec.asked(), []int{1, 2, 3}; !slices.Equal(got, want) {
				t.Errorf("strategy asked after attempts %v, want %v", got, want)
			}
		})
	}
}

// TestRetryStrategyBuiltins: the waits and the stops of the built-in
// strategies.
func TestRetryStrategyBuiltins(t *testing.T) {
	ms := time.Millisecond
	type step struct {
		wait  time.Duration
		again bool
	}
	for _, tc := range []struct {
		name string
		s    locks.RetryStrategy
		want []step // after attempts 1, 2, ...
	}{
		{"NoRetry", locks.NoRetry(), []step{{0, false}}},
		{"ConstantBackoff", locks.ConstantBackoff(7 * ms), []step{{7 * ms, true}, {7 * ms, true}, {7 * ms, true}}},
		{"LinearBackoff", locks.LinearBackoff(5*ms, 12*ms), []step{{5 * ms, true}, {10 * ms, true}, {12 * ms, true}, {12 * ms, true}}},
		{"LimitRetry", locks.LimitRetry(locks.ConstantBackoff(ms), 3), []step{{ms, true}, {ms, true}, {0, false}}},
		{"LimitRetry 0", locks.LimitRetry(locks.ConstantBackoff(ms), 0), []step{{0, false}}},
	} {
		for i, w := range tc.want {
			d, again := tc.s.Next(i+1, locks.NewSeededRand(1, "t"))
			if d != w.wait || again != w.again {
				t.Errorf("%s.Next(%d) = (%v, %v), want (%v, %v)", tc.name, i+1, d, again, w.wait, w.again)
			}
		}
	}
}

// TestExponentialBackoffJitter: the wait after attempt n is drawn from
// [w/2, w) with w = base × 2^(n-1) capped at maxWait, from the Rand given,
// so the same seed gives the same waits.
func TestExponentialBackoffJitter(t *testing.T) {
	s := locks.ExponentialBackoff(10*time.Millisecond, 80*time.Millisecond)
	a, b := locks.NewSeededRand(7, "a"), locks.NewSeededRand(7, "a")
	spread := map[time.Duration]bool{}
	for n := 1; n <= 200; n++ {
		attempt := (n-1)%6 + 1
		w := min(10*time.Millisecond<<(attempt-1), 80*time.Millisecond)
		d, again := s.Next(attempt, a)
		if !again || d < w/2 || d >= w {
			t.Fatalf("Next(%d) = (%v, %v), want a wait in [%v, %v) and true", attempt, d, again, w/2, w)
		}
		if d2, _ := s.Next(attempt, b); d2 != d {
			t.Fatalf("Next(%d) = %v and %v from two sources of one seed, want equal", attempt, d, d2)
		}
		spread[d] = true
	}
	if len(spread) < 20 {
		t.Errorf("%d distinct waits in 200 draws, want jitter", len(spread))
	}
}

// TestRetryStrategyOptionErrors: the arguments a strategy cannot use, and
// Retry.Attempts beside a strategy, are refused at construction, naming
// the field and the value.
func TestRetryStrategyOptionErrors(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	for _, tc := range []struct {
		name  string
		o     locks.Options
		field string
	}{
		{"attempts beside a strategy", locks.Options{Retry: locks.Retry{Attempts: 3}, RetryStrategy: locks.NoRetry()}, "Retry.Attempts"},
		{"negative constant", locks.Options{RetryStrategy: locks.ConstantBackoff(-time.Millisecond)}, "RetryStrategy"},
		{"linear max below step", locks.Options{RetryStrategy: locks.LinearBackoff(time.Second, time.Millisecond)}, "RetryStrategy"},
		{"exponential zero base", locks.Options{RetryStrategy: locks.ExponentialBackoff(0, time.Second)}, "RetryStrategy"},
		{"limit of nil", locks.Options{RetryStrategy: locks.LimitRetry(nil, 2)}, "RetryStrategy"},
		{"limit of a bad one", locks.Options{RetryStrategy: locks.LimitRetry(locks.ConstantBackoff(-1), 2)}, "RetryStrategy"},
	} {
		tc.o.TTL = time.Second
		_, err := locks.NewBasic(rdb, "k", tc.o)
		var oe *locks.OptionError
		if !errors.As(err, &oe) || oe.Field != tc.field {
			t.Errorf("%s: NewBasic = %v, want an *OptionError on %s", tc.name, err, tc.field)
		}
	}
}

// TestServiceWithStrategyStops: a Service given a strategy follows it
// instead of retrying until the context ends.
func TestServiceWithStrategyStops(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
	t.Cleanup(func() { rdb.Close() })
	holder := mustNew(locks.NewService(rdb, "svc", locks.Options{TTL: time.Minute}))
	l, err := holder.Acquire(t.Context())
	if err != nil {
		t.Fatalf("Acquire(holder) = %v", err)
	}
	defer holder.Release(context.Background(), l)
	waiter := mustNew(locks.NewService(rdb, "svc", locks.Options{TTL: time.Minute, RetryStrategy: locks.NoRetry()}))
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	if _, err := waiter.Acquire(ctx); !errors.Is(err, locks.ErrNotAcquired) || ctx.Err() != nil {
		t.Errorf("Acquire(waiter with NoRetry) = %v (context: %v), want ErrNotAcquired before the context ends", err, ctx.Err())
	}
}

// mustNew returns v, or panics on a constructor's error.
func mustNew[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

package locks_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
)

// cancelAtSetNX cancels the caller's context at its n-th SetNX: a context
// that ends in the middle of an attempt.
type cancelAtSetNX struct {
	locks.Redis
	n int64
	// mode: cancel "after" the reply, "before" the request, or fail the
	// request with an i/o timeout and cancel then ("io") or during the
	// backoff sleep that follows ("io-then-sleep").
	mode   string
	cancel context.CancelFunc
	calls  atomic.Int64
	armed  atomic.Bool // cancel at the next Sleep
}

// Sleep is the clock seam's: it cancels first when armed.
func (c *cancelAtSetNX) Sleep(ctx context.Context, d time.Duration) error {
	if c.armed.Load() {
		c.cancel()
	}
	return clock.Real{}.Sleep(ctx, d)
}

// sleepClock is the real clock with the Sleep of a cancelAtSetNX.
type sleepClock struct {
	clock.Real
	c *cancelAtSetNX
}

func (s sleepClock) Sleep(ctx context.Context, d time.Duration) error { return s.c.Sleep(ctx, d) }

// errIOTimeout stands for the network error a client may report instead of
// the context's when a deadline cuts a request short.
var errIOTimeout = errors.New("write tcp: i/o timeout")

func (c *cancelAtSetNX) SetNX(ctx context.Context, key string, value any, ttl time.Duration) *redis.BoolCmd {
	if c.calls.Add(1) != c.n {
		return c.Redis.SetNX(ctx, key, value, ttl)
	}
	switch c.mode {
	case "before":
		c.cancel()
		return c.Redis.SetNX(ctx, key, value, ttl)
	case "io", "io-then-sleep":
		if c.mode == "io" {
			c.cancel()
		} else {
			c.armed.Store(true)
		}
		cmd := redis.NewBoolCmd(ctx)
		cmd.SetErr(errIOTimeout)
		return cmd
	default:
		cmd := c.Redis.SetNX(ctx, key, value, ttl)
		c.cancel()
		return cmd
	}
}

// TestAcquireEndedMidAttempt: however the context's end falls against an
// attempt (during the request, or between its reply and the next backoff),
// a retrying Acquire of a taken lock fails with an error matching both
// context.Canceled and ErrNotAcquired, as it does when it ends during the
// backoff sleep.
func TestAcquireEndedMidAttempt(t *testing.T) {
	m := miniredis.RunT(t)
	for _, tc := range []struct {
		name string
		n    int64
		mode string
	}{
		{"after the first reply", 1, "after"},
		{"after the third reply", 3, "after"},
		{"before the third request", 3, "before"},
		{"failing the third request", 3, "io"},
		{"in the sleep after the third request failed", 3, "io-then-sleep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m.FlushAll()
			rdb := redis.NewClient(&redis.Options{Addr: m.Addr(), ContextTimeoutEnabled: true})
			defer rdb.Close()
			o := locks.Options{TTL: time.Minute, Retry: locks.Retry{Attempts: -1, Delay: time.Millisecond}}
			holder, err := locks.NewBasic(rdb, "k", o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := holder.Acquire(t.Context()); err != nil {
				t.Fatalf("Acquire(holder) = %v", err)
			}
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			r := &cancelAtSetNX{Redis: rdb, n: tc.n, mode: tc.mode, cancel: cancel}
			o.Clock = sleepClock{clock.Real{}, r}
			waiter, err := locks.NewBasic(r, "k", o)
			if err != nil {
				t.Fatal(err)
			}
			_, err = waiter.Acquire(ctx)
			if !errors.Is(err, context.Canceled) || !errors.Is(err, locks.ErrNotAcquired) {
				t.Errorf("Acquire(waiter) cancelled %s = %v, want context.Canceled and ErrNotAcquired", tc.name, err)
			}
		})
	}
}

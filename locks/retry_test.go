package locks_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
)

// cancelAtSetNX cancels the caller's context at its n-th SetNX: a context
// that ends in the middle of an attempt.
type cancelAtSetNX struct {
	locks.Redis
	n      int64
	mode   string // "after" the reply, "before" the request, or "io": the request fails
	cancel context.CancelFunc
	calls  atomic.Int64
}

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
	case "io":
		c.cancel()
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			m.FlushAll()
			rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
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
			waiter, err := locks.NewBasic(&cancelAtSetNX{Redis: rdb, n: tc.n, mode: tc.mode, cancel: cancel}, "k", o)
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

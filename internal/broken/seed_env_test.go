package broken

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/locks/lockstest"
)

// Helpers of the seed fair and read-write lock tests, which run one
// scenario against the correct pattern and the seed's version.

// seedMini starts a miniredis and returns it with a client factory.
func seedMini(t *testing.T) (*miniredis.Miniredis, func() *redis.Client) {
	t.Helper()
	m := miniredis.RunT(t)
	return m, func() *redis.Client {
		c := redis.NewClient(&redis.Options{Addr: m.Addr(), DialerRetries: 1, ContextTimeoutEnabled: true})
		t.Cleanup(func() { c.Close() })
		return c
	}
}

// seedStepClock is a manual clock that moves time, and the server's TTLs,
// only when lock code sleeps; for single-goroutine scenarios.
func seedStepClock(m *miniredis.Miniredis) *lockstest.ManualClock {
	c := lockstest.NewManualClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), m.FastForward)
	c.SleepMoves = true
	c.Sequential = true
	return c
}

// seedSkewed is the real clock offset by off: a client whose wall clock is
// wrong.
type seedSkewed struct {
	clock.Real
	off time.Duration
}

func (c seedSkewed) Now() time.Time { return time.Now().Add(c.off) }

var errSeedCrashed = errors.New("client crashed")

// seedCrashing is a Redis seam that dies after its first command that
// reached the server: every later call fails, as if the client process
// had crashed right after it.
type seedCrashing struct {
	locks.Redis
	dead atomic.Bool
}

func (c *seedCrashing) after(cmd redis.Cmder) {
	if err := cmd.Err(); err == nil || !strings.HasPrefix(err.Error(), "NOSCRIPT") {
		c.dead.Store(true)
	}
}

func (c *seedCrashing) Eval(ctx context.Context, s string, keys []string, args ...any) *redis.Cmd {
	if c.dead.Load() {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(errSeedCrashed)
		return cmd
	}
	cmd := c.Redis.Eval(ctx, s, keys, args...)
	c.after(cmd)
	return cmd
}

func (c *seedCrashing) EvalSha(ctx context.Context, sha string, keys []string, args ...any) *redis.Cmd {
	if c.dead.Load() {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(errSeedCrashed)
		return cmd
	}
	cmd := c.Redis.EvalSha(ctx, sha, keys, args...)
	c.after(cmd)
	return cmd
}

func (c *seedCrashing) SetNX(ctx context.Context, key string, v any, ttl time.Duration) *redis.BoolCmd {
	if c.dead.Load() {
		cmd := redis.NewBoolCmd(ctx)
		cmd.SetErr(errSeedCrashed)
		return cmd
	}
	cmd := c.Redis.SetNX(ctx, key, v, ttl)
	c.after(cmd)
	return cmd
}

// seedQuickOpts poll every few milliseconds of real time and never expire
// within a test.
func seedQuickOpts() locks.Options {
	return locks.Options{TTL: 10 * time.Second,
		Retry: locks.Retry{Attempts: -1, Delay: time.Millisecond, MaxDelay: 4 * time.Millisecond}}
}

// seedWaitFor polls cond in real time until it holds or 10s pass: for the
// real-clock tests, whose goroutines no clock sees.
func seedWaitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

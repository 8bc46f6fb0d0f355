// Package refs adapts the Go lock libraries people use today —
// github.com/bsm/redislock and github.com/go-redsync/redsync/v4 — to the
// bench harness, so that they run the same cycles as the patterns, in the
// same run.
//
// It is a module of its own (bench/refs) so that the libraries stay out of
// locksim's own dependencies: a build tag would still list them in the main
// go.mod and go.sum. Its command, cmd/locksim-bench, is `locksim bench` with
// these subjects added.
package refs

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/bsm/redislock"
	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"

	"github.com/locksim/locksim/bench"
)

// Subjects returns the library subjects: redislock and redsync on one node
// (one attempt per Acquire, like the floor: the runner retries at once), and
// redsync over N nodes with its default retry policy (up to 32 tries, a
// random 50–250ms apart).
func Subjects() []bench.Subject {
	return []bench.Subject{
		{Name: "redislock", Kind: bench.KindLibrary, Holders: 1, Family: bench.Single,
			Summary: "bsm/redislock: Lua obtain, Lua release, no retry",
			New:     newRedislock},
		{Name: "redsync", Kind: bench.KindLibrary, Holders: 1, Family: bench.Single,
			Summary: "go-redsync/redsync/v4 on one node, one try per call",
			New: func(c bench.Conn, key string) (bench.Locker, error) {
				return newRedsync(c, key, redsync.WithTries(1)), nil
			}},
		{Name: "redsync", Kind: bench.KindLibrary, Holders: 1, Family: bench.Quorum,
			Summary: "go-redsync/redsync/v4 over N nodes, default retries",
			New: func(c bench.Conn, key string) (bench.Locker, error) {
				return newRedsync(c, key, redsync.WithRetryDelayFunc(countedDelay(c.Retries))), nil
			}},
	}
}

type redislockLocker struct {
	c   *redislock.Client
	key string
	ttl time.Duration
}

func newRedislock(c bench.Conn, key string) (bench.Locker, error) {
	return &redislockLocker{c: redislock.New(c.Nodes[0]), key: key, ttl: c.TTL}, nil
}

func (r *redislockLocker) Acquire(ctx context.Context) (bench.Held, error) {
	l, err := r.c.Obtain(ctx, r.key, r.ttl, nil)
	if errors.Is(err, redislock.ErrNotObtained) {
		return nil, bench.Busy(err)
	}
	if err != nil {
		return nil, err
	}
	return redislockHeld{l}, nil
}

type redislockHeld struct{ l *redislock.Lock }

func (h redislockHeld) Release(ctx context.Context) error { return h.l.Release(ctx) }

// redsyncLocker is one client's mutex (redsync mutexes carry their owner
// value, so each client has its own).
type redsyncLocker struct{ m *redsync.Mutex }

func newRedsync(c bench.Conn, key string, opts ...redsync.Option) *redsyncLocker {
	pools := make([]rsredis.Pool, len(c.Nodes))
	for i, n := range c.Nodes {
		pools[i] = goredis.NewPool(n)
	}
	opts = append([]redsync.Option{redsync.WithExpiry(c.TTL)}, opts...)
	return &redsyncLocker{m: redsync.New(pools...).NewMutex(key, opts...)}
}

func (r *redsyncLocker) Acquire(ctx context.Context) (bench.Held, error) {
	err := r.m.LockContext(ctx)
	if err == nil {
		return r, nil
	}
	var re *redsync.RedisError
	if ctx.Err() == nil && !errors.As(err, &re) {
		return nil, bench.Busy(err) // ErrFailed, ErrTaken, or a split without a node error
	}
	return nil, err
}

var errNotReleased = errors.New("refs: redsync unlock reached no quorum")

func (r *redsyncLocker) Release(ctx context.Context) error {
	ok, err := r.m.UnlockContext(ctx)
	if err == nil && !ok {
		err = errNotReleased
	}
	return err
}

// countedDelay is redsync's default retry delay (uniform in [50ms, 250ms))
// that also counts each retry.
func countedDelay(n *bench.Counter) redsync.DelayFunc {
	return func(int) time.Duration {
		n.Inc()
		return 50*time.Millisecond + rand.N(200*time.Millisecond)
	}
}

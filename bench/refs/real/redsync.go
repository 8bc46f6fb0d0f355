package real

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/go-redsync/redsync/v4"
	rsredis "github.com/go-redsync/redsync/v4/redis"
	"github.com/go-redsync/redsync/v4/redis/goredis/v9"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/realmode"
)

// redsyncLock is one client's redsync mutex. A redsync.Mutex is not safe
// for concurrent use, so the renewal loop and the holder's check take mu.
type redsyncLock struct {
	mu    sync.Mutex
	m     *redsync.Mutex
	ttl   time.Duration
	renew *renewer
}

func redsyncNew(setNX bool) func([]*redis.Client, string, locks.Options) (realmode.Lock, error) {
	return func(nodes []*redis.Client, key string, o locks.Options) (realmode.Lock, error) {
		pools := make([]rsredis.Pool, len(nodes))
		for i, n := range nodes {
			pools[i] = goredis.NewPool(n)
		}
		opts := []redsync.Option{redsync.WithExpiry(o.TTL), redsync.WithTries(1 << 30), redsync.WithRetryDelay(max(o.Retry.Delay, time.Millisecond))}
		if setNX {
			opts = append(opts, redsync.WithSetNXOnExtend())
		}
		return &redsyncLock{m: redsync.New(pools...).NewMutex(key, opts...), ttl: o.TTL}, nil
	}
}

// Acquire locks with redsync's retries until ctx ends, then starts the
// renewal loop its README suggests: Extend every TTL/3.
func (r *redsyncLock) Acquire(ctx context.Context) (realmode.Lease, error) {
	r.mu.Lock()
	err := r.m.LockContext(ctx)
	r.mu.Unlock()
	if err != nil {
		var re *redsync.RedisError
		if ctx.Err() != nil || errors.Is(err, redsync.ErrFailed) || !errors.As(err, &re) {
			return nil, errors.Join(locks.ErrNotAcquired, err)
		}
		return nil, err
	}
	r.renew = startRenewer(r.ttl/3, r.extend)
	return redsyncLease{r}, nil
}

func (r *redsyncLock) extend() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), r.ttl)
	defer cancel()
	ok, err := r.m.ExtendContext(ctx)
	if err == nil && !ok {
		err = errLost
	}
	return err
}

// Release stops the renewal and unlocks.
func (r *redsyncLock) Release(ctx context.Context, _ realmode.Lease) error {
	if r.renew != nil {
		r.renew.end()
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ok, err := r.m.UnlockContext(ctx)
	if err == nil && !ok {
		err = errNotReleased
	}
	return err
}

type redsyncLease struct{ r *redsyncLock }

func (l redsyncLease) Token() string {
	l.r.mu.Lock()
	defer l.r.mu.Unlock()
	return l.r.m.Value()
}
func (redsyncLease) Fence() int64 { return 0 }
func (redsyncLease) Count() int   { return 0 }
func (redsyncLease) Shared() bool { return false }

// Err is the holder's view: the renewal failed, or the validity redsync
// computed (Until: expiry − elapsed − drift, from its last success) is over.
func (l redsyncLease) Err() error {
	if l.r.renew.lost.Load() {
		return errLost
	}
	l.r.mu.Lock()
	until := l.r.m.Until()
	l.r.mu.Unlock()
	if !time.Now().Before(until) {
		return locks.ErrLockLost
	}
	return nil
}

package real

import (
	"context"
	"errors"
	"time"

	"github.com/bsm/redislock"
	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/realmode"
)

// redislockLock is one client's bsm/redislock client.
type redislockLock struct {
	c     *redislock.Client
	key   string
	ttl   time.Duration
	retry time.Duration
}

func redislockNew(nodes []*redis.Client, key string, o locks.Options) (realmode.Lock, error) {
	return &redislockLock{c: redislock.New(nodes[0]), key: key, ttl: o.TTL, retry: max(o.Retry.Delay, time.Millisecond)}, nil
}

// Acquire obtains with a linear backoff until ctx ends, then refreshes on
// a TTL/3 ticker.
func (r *redislockLock) Acquire(ctx context.Context) (realmode.Lease, error) {
	l, err := r.c.Obtain(ctx, r.key, r.ttl, &redislock.Options{RetryStrategy: redislock.LinearBackoff(r.retry)})
	if errors.Is(err, redislock.ErrNotObtained) || (err != nil && ctx.Err() != nil) {
		return nil, errors.Join(locks.ErrNotAcquired, err)
	}
	if err != nil {
		return nil, err
	}
	lease := &redislockLease{l: l, ttl: r.ttl}
	lease.renew = startRenewer(r.ttl/3, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), r.ttl)
		defer cancel()
		return l.Refresh(ctx, r.ttl, nil)
	})
	return lease, nil
}

// Release stops the refresh and releases.
func (r *redislockLock) Release(ctx context.Context, l realmode.Lease) error {
	lease := l.(*redislockLease)
	lease.renew.end()
	err := lease.l.Release(ctx)
	if errors.Is(err, redislock.ErrLockNotHeld) {
		return errors.Join(locks.ErrNotHeld, err)
	}
	return err
}

type redislockLease struct {
	l     *redislock.Lock
	ttl   time.Duration
	renew *renewer
}

func (l *redislockLease) Token() string { return l.l.Token() }
func (*redislockLease) Fence() int64    { return 0 }
func (*redislockLease) Count() int      { return 0 }
func (*redislockLease) Shared() bool    { return false }

// Err is the check redislock's README shows before relying on the lock:
// lock.TTL > 0 (and no refresh has failed).
func (l *redislockLease) Err() error {
	if l.renew.lost.Load() {
		return errLost
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.ttl)
	defer cancel()
	ttl, err := l.l.TTL(ctx)
	if err != nil {
		return err
	}
	if ttl <= 0 {
		return locks.ErrLockLost
	}
	return nil
}

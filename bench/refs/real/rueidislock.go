package real

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/redis/go-redis/v9"
	"github.com/redis/rueidis"
	"github.com/redis/rueidis/rueidislock"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/realmode"
)

// rueidisLock is one client's rueidislock Locker (its own connection:
// rueidis, not go-redis).
type rueidisLock struct {
	l    rueidislock.Locker
	name string
	seq  atomic.Int64
}

func rueidislockNew(nodes []*redis.Client, key string, o locks.Options) (realmode.Lock, error) {
	l, err := rueidislock.NewLocker(rueidislock.LockerOption{
		ClientOption:   rueidis.ClientOption{InitAddress: []string{nodes[0].Options().Addr}},
		KeyMajority:    1,
		NoLoopTracking: true, // redis-server >= 7.0.5
		KeyValidity:    o.TTL,
	})
	if err != nil {
		return nil, fmt.Errorf("rueidislock: %w", err)
	}
	return &rueidisLock{l: l, name: key}, nil
}

// Acquire waits for the lock until ctx ends. rueidislock derives the
// lock's context from the one it is given, so the wait is bounded by a
// context of its own, cancelled when ctx ends before the lock is held.
func (r *rueidisLock) Acquire(ctx context.Context) (realmode.Lease, error) {
	src, cancelSrc := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancelSrc)
	lctx, release, err := r.l.WithContext(src, r.name)
	if !stop() || err != nil {
		if release != nil {
			release()
		}
		cancelSrc()
		if err == nil {
			err = ctx.Err()
		}
		return nil, errors.Join(locks.ErrNotAcquired, err)
	}
	return &rueidisLease{ctx: lctx, release: func() { release(); cancelSrc() }, token: fmt.Sprintf("%s-%d", r.name, r.seq.Add(1))}, nil
}

// Release cancels the lock's context, which deletes its keys.
func (r *rueidisLock) Release(_ context.Context, l realmode.Lease) error {
	lease := l.(*rueidisLease)
	held := lease.ctx.Err() == nil
	lease.release()
	if !held {
		return fmt.Errorf("rueidislock: %w (its context had ended)", locks.ErrNotHeld)
	}
	return nil
}

type rueidisLease struct {
	ctx     context.Context
	release func()
	token   string
}

func (l *rueidisLease) Token() string { return l.token }
func (*rueidisLease) Fence() int64    { return 0 }
func (*rueidisLease) Count() int      { return 0 }
func (*rueidisLease) Shared() bool    { return false }

// Err is the lock context's: cancelled when the validity passes without an
// extension or the library sees the keys go.
func (l *rueidisLease) Err() error { return l.ctx.Err() }

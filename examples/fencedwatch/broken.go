package fencedwatch

import (
	"context"

	"github.com/locksim/locksim/locks"
)

// NewClockFenced returns the broken twin of New: the same lock and
// watchdog, but the fencing token is the client's wall-clock reading at
// acquisition (microseconds since the epoch), taken after a plain SET NX
// PX. Tokens then follow the clients' clocks, not the order of the
// grants: a client whose clock runs ahead hands out tokens that a later
// holder's cannot beat, so the store rejects the rightful holder's writes
// and accepts a stale one's — and fence monotonicity is gone.
func NewClockFenced(r locks.Redis, name string, o locks.Options) (*Lock, error) {
	l, err := New(r, name, o)
	if err != nil {
		return nil, err
	}
	l.fence = l.clockFence
	return l, nil
}

// clockFence is the pitfall: SET NX PX, then a token from the wall clock.
func (l *Lock) clockFence(ctx context.Context, token string) (int64, error) {
	ok, err := l.r.SetNX(ctx, l.lockKey, token, l.ttl).Result()
	if err != nil || !ok {
		return 0, err
	}
	return l.clk.Now().UnixMicro(), nil
}

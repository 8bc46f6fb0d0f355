package locks

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/locksim/locksim/clock"
)

// This file holds how a waiter is woken instead of polling: each waiter has
// a wake list of its own, {name}:wake:<token>, in the lock's hash slot. The
// script that frees the lock for it (a release, a waiter leaving the head of
// a queue) pushes to that list and gives it an expiry; the waiter spends
// each backoff blocked on the list (BLPOP with the backoff as its timeout)
// rather than sleeping. A push wakes it at once; a push that is lost (the
// waiter was not blocked yet, its list expired, the reply was dropped)
// costs at most the backoff it would have slept anyway, and a lock freed by
// expiry (which pushes nothing) is found by that same bounded poll.

// Blocker is the optional part of the Redis seam that lets waiters block:
// *redis.Client, *redis.ClusterClient and *redis.Ring satisfy it, and so
// does the simulator's client. A Redis without it (a narrow seam of one's
// own) keeps working: its waiters poll with the Retry backoff as before.
//
// Each blocked waiter holds one connection of the client's pool for up to
// Retry.MaxDelay: size PoolSize for the waiters and holders a process runs
// at once. A block shorter than a second is read under the client's
// ReadTimeout (go-redis's default 3s), so keep ReadTimeout above
// Retry.MaxDelay; longer blocks extend the read deadline themselves. A cancelled context ends a blocked wait at once only with
// Options.ContextTimeoutEnabled on the go-redis client; without it the
// wait ends when its block timeout (at most Retry.MaxDelay) runs out.
type Blocker interface {
	// BLPop blocks for whole seconds, with the read deadline extended to
	// match; Do sends the sub-second blocks.
	BLPop(ctx context.Context, timeout time.Duration, keys ...string) *redis.StringSliceCmd
	Do(ctx context.Context, args ...any) *redis.Cmd
}

var (
	_ Blocker = (*redis.Client)(nil)
	_ Blocker = (*redis.ClusterClient)(nil)
)

// WakePrefix is the prefix of the wake lists of the waiters of the lock
// named name: a waiter's list is WakePrefix(name) + its token.
func WakePrefix(name string) string { return "{" + name + "}:wake:" }

// waker blocks one waiter on its wake list.
type waker struct {
	b     Blocker // nil: the seam cannot block, sleep instead
	key   string  // the waiter's wake list
	clk   clock.Clock
	bound time.Duration // how long past its timeout a block may take
}

// newWaker returns the waker of token on the lock whose wake lists start
// with prefix (WakePrefix of its name); a block that has not returned
// bound after its timeout is given up (its request or reply was lost), and
// the rest of the backoff slept.
func newWaker(r Redis, prefix, token string, c *config, bound time.Duration) waker {
	b, _ := r.(Blocker)
	return waker{b: b, key: prefix + token, clk: c.Clock, bound: bound}
}

// wait blocks until the waiter is woken or d passes (or ctx is done). It
// falls back to a sleep when the seam cannot block, and to a sleep for the
// rest of d when the block fails (a transient error must not turn the
// backoff into a tight loop); ctx's end is its only error. A block is
// given up bound after its timeout (its request or reply was lost).
func (w waker) wait(ctx context.Context, d time.Duration) error {
	if w.b == nil {
		return w.clk.Sleep(ctx, d)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	start := w.clk.Now()
	bctx, cancel := w.clk.WithTimeout(ctx, d+w.bound)
	err := w.block(bctx, d)
	cancel()
	switch {
	case err == nil, errors.Is(err, redis.Nil):
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return w.clk.Sleep(ctx, max(d-w.clk.Since(start), 0))
}

// block sends one BLPOP of at most d: in whole seconds through BLPop (which
// extends the read deadline), or below a second as a decimal through Do.
func (w waker) block(ctx context.Context, d time.Duration) error {
	if d >= time.Second {
		return w.b.BLPop(ctx, d.Truncate(time.Second), w.key).Err()
	}
	return w.b.Do(ctx, "blpop", w.key, blockTimeout(d)).Err()
}

// blockTimeout is d as BLPOP's timeout in seconds, at least 1ms (0 would
// block forever).
func blockTimeout(d time.Duration) string {
	ms := max(d.Milliseconds(), 1)
	return strconv.FormatFloat(float64(ms)/1000, 'f', 3, 64)
}

// wakeTTL is how long a wake list outlives its last push: long enough for
// a waiter blocked for a whole backoff to see it, short enough that a dead
// waiter's list goes soon.
func (c *config) wakeTTL() int64 { return max(2*c.Retry.MaxDelay, time.Second).Milliseconds() }

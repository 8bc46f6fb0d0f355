package locks

import (
	"context"
	"time"
)

// This file holds how an Acquire pays what a failed attempt still owes the
// server: giving back a grant whose reply was lost or came too late (an
// undo), leaving a queue or withdrawing a writer's intent. The clean-up
// must run whatever the caller's context says (the keys would otherwise
// stand for a TTL), but must not hold a caller whose context is done: a
// server that does not answer would keep Acquire past its deadline for as
// long as the clean-up is allowed to take (the TTL).

// CleanupGrace is how long past its context's end an Acquire waits for the
// clean-up a failed attempt owes (at most the TTL) before it returns and
// leaves the clean-up running in the background: enough for one round trip
// to a server that answers, so that a cancelled or timed-out Acquire has
// normally left the queue, or given back its grant, by the time it
// returns.
const CleanupGrace = 100 * time.Millisecond

// owe runs cleanup, which reports whether it succeeded; failed, if not nil,
// is called if it did not. While ctx lasts it runs in the caller (bounded
// by ctx and the TTL), so that an Acquire with time left cleans up before
// it retries or returns. Once ctx is done — before the clean-up, or during
// it, cutting it short — the clean-up runs (again: each is idempotent) in
// the background, through the Clock's Go, bounded by the TTL (by then the
// keys it would remove have expired), and the caller waits for it at most
// CleanupGrace, and not at all after a clean-up cut short (that server did
// not answer while ctx lasted).
func (c *config) owe(ctx context.Context, cleanup func(context.Context) error, failed func()) {
	if ctx.Err() == nil {
		cctx, cancel := c.Clock.WithTimeout(ctx, c.TTL)
		err := cleanup(cctx)
		cancel()
		if err == nil || ctx.Err() == nil {
			if err != nil && failed != nil {
				failed()
			}
			return
		}
		c.background(ctx, cleanup, failed, 0)
		return
	}
	c.background(ctx, cleanup, failed, min(CleanupGrace, c.TTL))
}

// background runs cleanup through the Clock's Go, with a context that
// ignores ctx's end and is bounded by the TTL, and waits for it at most
// wait (on the Clock).
func (c *config) background(ctx context.Context, cleanup func(context.Context) error, failed func(), wait time.Duration) {
	detached := context.WithoutCancel(ctx)
	fin, finish := c.Clock.WithCancel(detached)
	c.Clock.Go(func() {
		defer finish()
		bctx, cancel := c.Clock.WithTimeout(detached, c.TTL)
		defer cancel()
		if cleanup(bctx) != nil && failed != nil {
			failed()
		}
	})
	if wait > 0 {
		_ = c.Clock.Sleep(fin, wait) // woken by the clean-up's end
	}
}

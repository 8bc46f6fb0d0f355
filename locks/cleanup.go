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
// is called if it did not. The clean-up runs once, whatever ctx says,
// bounded by the TTL (by then the keys it would remove have expired). With
// a ctx that can end, it runs in the background, through the Clock's Go,
// and the caller waits for it while ctx lasts and at most CleanupGrace
// past ctx's end: an Acquire with time left cleans up before it retries or
// returns, as it always did, and one whose context is done does not wait
// on a server that does not answer. With a ctx that never ends
// (context.Background) it runs in the caller.
func (c *config) owe(ctx context.Context, cleanup func(context.Context) error, failed func()) {
	run := func(ctx context.Context) {
		cctx, cancel := c.Clock.WithTimeout(ctx, c.TTL)
		defer cancel()
		if cleanup(cctx) != nil && failed != nil {
			failed()
		}
	}
	if ctx.Done() == nil {
		run(ctx)
		return
	}
	detached := context.WithoutCancel(ctx)
	fin, finish := c.Clock.WithCancel(detached) // done when the clean-up is
	live, wake := c.Clock.WithCancel(ctx)       // done when it is, or ctx
	c.Clock.Go(func() {
		defer finish()
		defer wake()
		run(detached)
	})
	_ = c.Clock.Sleep(live, c.TTL) // while ctx lasts
	wake()
	_ = c.Clock.Sleep(fin, min(CleanupGrace, c.TTL)) // and a grace past its end
}

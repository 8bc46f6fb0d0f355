// Package clock is the only way lock code observes or spends time, or starts
// concurrent work.
//
// Production code uses Real, which is backed by the time package and plain
// goroutines. The simulator supplies its own Clock per simulated client, so
// that every read of time, every wait and every goroutine that lock code
// starts is scheduled by the simulator: a paused client is one whose
// goroutines are not resumed, a skewed client is one whose Now is offset.
//
// Lock code must wait only through a Clock (Sleep, contexts made by
// WithTimeout/WithCancel, Parallel) or through its Redis seam. A goroutine
// blocked on anything else is invisible to a deterministic scheduler.
package clock

import (
	"context"
	"sync"
	"time"
)

// Clock is the time and concurrency seam.
type Clock interface {
	// Now is this process's wall clock. It may drift or jump.
	Now() time.Time
	// Since is the time elapsed since t, as this process measures it
	// (monotonic where the implementation has a monotonic clock).
	Since(t time.Time) time.Duration
	// Sleep waits for d, or until ctx is done; it returns ctx.Err() in the
	// latter case. A non-positive d returns at once (after checking ctx).
	Sleep(ctx context.Context, d time.Duration) error
	// WithTimeout is context.WithTimeout measured on this clock.
	WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc)
	// WithCancel is context.WithCancel whose cancellation this clock can
	// observe (a Sleep on the returned context wakes when it is cancelled).
	WithCancel(ctx context.Context) (context.Context, context.CancelFunc)
	// Go starts fn as background work of this process.
	Go(fn func())
	// Parallel runs fn(0), ..., fn(n-1) concurrently and returns when all
	// of them have returned.
	Parallel(n int, fn func(i int))
}

// AfterFuncer is a Clock that can call a function once d has passed on it
// without any goroutine waiting meanwhile (the timer is the clock's own).
// Lock code uses it, when its Clock has it, for timers that are usually
// stopped before they fire (a lease's validity timer, stopped by the
// release), and otherwise waits through Go and Sleep. A Clock that wraps
// another and changes how it measures time (Since) must not pass the
// wrapped one's AfterFunc on: its timers would run on the other clock.
type AfterFuncer interface {
	// AfterFunc calls fn in a goroutine of its own once d has passed, and
	// returns a function that stops the timer; stop reports whether it
	// stopped it before fn was called.
	AfterFunc(d time.Duration, fn func()) (stop func() bool)
}

// Real is the production Clock: the time package and goroutines.
type Real struct{}

var _ Clock = Real{}

// Now returns time.Now().
func (Real) Now() time.Time { return time.Now() }

// Since returns time.Since(t), monotonic when t carries a monotonic reading.
func (Real) Since(t time.Time) time.Duration { return time.Since(t) }

// Sleep waits for d or until ctx is done.
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// WithTimeout returns context.WithTimeout(ctx, d).
func (Real) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d)
}

// WithCancel returns context.WithCancel(ctx).
func (Real) WithCancel(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithCancel(ctx)
}

// Go runs fn in a new goroutine.
func (Real) Go(fn func()) { go fn() }

var _ AfterFuncer = Real{}

// AfterFunc is time.AfterFunc.
func (Real) AfterFunc(d time.Duration, fn func()) func() bool { return time.AfterFunc(d, fn).Stop }

// Parallel runs fn(i) for i in [0, n) in n goroutines and waits for all.
func (Real) Parallel(n int, fn func(i int)) {
	if n == 1 {
		fn(0)
		return
	}
	var wg sync.WaitGroup
	wg.Add(n)
	for i := range n {
		go func() {
			defer wg.Done()
			fn(i)
		}()
	}
	wg.Wait()
}

package realmode

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/clock"
)

// driftClock is a client's Clock running at rate (1 + ppm/1e6) of real
// time from its start: a client clock drift done for real, through the
// Clock seam (only lock code that reads time through it drifts; a library
// that reads the wall clock cannot be made to).
type driftClock struct {
	clock.Real
	base time.Time // wall time at the start, without a monotonic reading
	mono time.Time // the same instant, with one
	rate float64
}

func newDriftClock(ppm int64) *driftClock {
	now := time.Now()
	return &driftClock{base: now.Round(0), mono: now, rate: 1 + float64(ppm)/1e6}
}

// Now is the drifted wall clock (no monotonic reading, so that Sub and
// Since compare drifted times).
func (c *driftClock) Now() time.Time {
	return c.base.Add(time.Duration(float64(time.Since(c.mono)) * c.rate))
}

// Since is the drifted time elapsed since t.
func (c *driftClock) Since(t time.Time) time.Duration { return c.Now().Sub(t.Round(0)) }

// real converts a duration on this clock to real time.
func (c *driftClock) real(d time.Duration) time.Duration { return time.Duration(float64(d) / c.rate) }

// Sleep waits for d on this clock.
func (c *driftClock) Sleep(ctx context.Context, d time.Duration) error {
	return c.Real.Sleep(ctx, c.real(d))
}

// WithTimeout is a timeout of d on this clock.
func (c *driftClock) WithTimeout(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, c.real(d))
}

// jumpClock is a client's Clock whose wall clock can be stepped: Now is
// offset by every jump so far, and keeps its monotonic reading, so that
// Since (elapsed time) is exact across jumps, as Go's time.Time makes it
// and as the simulator's clocks do.
type jumpClock struct {
	clock.Clock
	off atomic.Int64 // ns
}

// Now is the underlying Now stepped by the jumps so far.
func (c *jumpClock) Now() time.Time { return c.Clock.Now().Add(time.Duration(c.off.Load())) }

// jump steps the wall clock by d.
func (c *jumpClock) jump(d time.Duration) { c.off.Add(int64(d)) }

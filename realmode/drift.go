package realmode

import (
	"context"
	"sync"
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
// offset by every jump so far, and Since is what the simulator's process
// clock (sim/sched.Proc) gives: for a reading Now returned, the time
// elapsed since it, whatever jumps came between (as Go's monotonic
// readings make it); for any other time (one derived from a reading, a
// deadline), the difference of the wall clocks, which a jump moves. A
// reading carries its offset in its monotonic reading too (time.Time.Add
// moves both), so the recent readings are kept with the offset each was
// made at, and Since adds it back (the lock reads Since of a grant's or a
// renewal's start, within a few TTLs).
type jumpClock struct {
	clock.Clock
	mu   sync.Mutex
	off  time.Duration
	at   map[time.Time]time.Duration // recent readings, with the offset each was made at
	ring []time.Time                 // the same readings, oldest first once full
	next int
}

// jumpReadings is how many recent readings a jumpClock remembers.
const jumpReadings = 1 << 16

// Now is the underlying Now stepped by the jumps so far.
func (c *jumpClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.Clock.Now().Add(c.off)
	c.remember(t)
	return t
}

// remember records reading t as made at the current offset.
func (c *jumpClock) remember(t time.Time) {
	if c.at == nil {
		c.at, c.ring = map[time.Time]time.Duration{}, make([]time.Time, 0, jumpReadings)
	}
	if _, ok := c.at[t]; ok {
		return
	}
	if len(c.ring) < jumpReadings {
		c.ring = append(c.ring, t)
	} else {
		delete(c.at, c.ring[c.next])
		c.ring[c.next] = t
		c.next = (c.next + 1) % jumpReadings
	}
	c.at[t] = c.off
}

// Since is the time elapsed since t: for a reading of Now, the underlying
// Since plus the offset t was read at (which its monotonic reading
// carries); for another time, the wall clocks' difference.
func (c *jumpClock) Since(t time.Time) time.Duration {
	c.mu.Lock()
	off, read := c.at[t]
	now := c.off
	c.mu.Unlock()
	if read {
		return c.Clock.Since(t) + off
	}
	return c.Clock.Now().Add(now).Round(0).Sub(t.Round(0))
}

// jump steps the wall clock by d.
func (c *jumpClock) jump(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off += d
}

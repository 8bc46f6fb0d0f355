// Package vclock models the clocks of one simulated process (a client or a
// Redis node) as functions of the simulator's true time.
//
// A Clock has a monotonic reading and a wall reading, both in nanoseconds.
// The monotonic reading advances at 1 + drift, where drift is given in parts
// per million (+10000 = 1% fast); drift can change at any true instant. The
// wall reading is the monotonic one plus an offset that jumps when the wall
// clock is stepped (NTP step, operator, VM migration): jumps move the wall
// clock only, as they move CLOCK_REALTIME but not CLOCK_MONOTONIC.
//
// All arithmetic is integer, so a run reads the same clocks on every
// machine.
package vclock

import (
	"fmt"
	"math/bits"
	"time"
)

// Epoch is the true instant 0 of every simulation: a fixed date, so that
// wall readings never depend on when a run happens.
var Epoch = time.Date(2025, time.January, 1, 0, 0, 0, 0, time.UTC)

// MinDriftPPM and MaxDriftPPM bound the drift: a clock that stops or runs
// backwards is not a clock, and one 100× too fast is a broken test.
const (
	MinDriftPPM = -900_000
	MaxDriftPPM = 10_000_000
)

const million = 1_000_000

// Clock is one process's clocks. The zero value is a perfect clock.
type Clock struct {
	t0    int64 // true time at which the current drift segment started
	m0    int64 // monotonic reading at t0
	ppm   int64 // drift of the current segment
	wall  int64 // wall = monotonic + wall offset
	jumps int   // wall jumps so far
}

// New returns a clock whose wall reading is offset from true time.
func New(offset time.Duration) *Clock { return &Clock{wall: int64(offset)} }

// Mono is the monotonic reading at true time t (t must not precede the
// last SetDrift).
func (c *Clock) Mono(t int64) int64 { return c.m0 + scale(t-c.t0, c.ppm) }

// Wall is the wall reading at true time t, in nanoseconds since Epoch.
func (c *Clock) Wall(t int64) int64 { return c.Mono(t) + c.wall }

// Offset is how far the wall reading is ahead of true time at t.
func (c *Clock) Offset(t int64) time.Duration { return time.Duration(c.Wall(t) - t) }

// Drift is the current drift in parts per million.
func (c *Clock) Drift() int64 { return c.ppm }

// Jumps is the number of wall jumps so far.
func (c *Clock) Jumps() int { return c.jumps }

// SetDrift changes the drift from true time t on.
func (c *Clock) SetDrift(t, ppm int64) error {
	if ppm < MinDriftPPM || ppm > MaxDriftPPM {
		return fmt.Errorf("vclock: drift %dppm outside [%d, %d]", ppm, MinDriftPPM, MaxDriftPPM)
	}
	c.m0 = c.Mono(t)
	c.t0 = t
	c.ppm = ppm
	return nil
}

// Jump steps the wall clock by d (negative steps it back).
func (c *Clock) Jump(d time.Duration) {
	c.wall += int64(d)
	c.jumps++
}

// TrueFor is the true duration over which this clock, at its current drift,
// measures d (rounded up, so a timer never fires early). d ≤ 0 gives 0.
func (c *Clock) TrueFor(d time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	k := uint64(million + c.ppm)
	hi, lo := bits.Mul64(uint64(d), million)
	if hi >= k {
		return int64(^uint64(0) >> 1)
	}
	q, r := bits.Div64(hi, lo, k)
	if r != 0 {
		q++
	}
	return int64(q)
}

// scale returns ⌊dt × (1 + ppm/1e6)⌋ for dt ≥ 0, without overflow for any
// dt below a century.
func scale(dt, ppm int64) int64 {
	q, r := dt/million, dt%million
	f := r * ppm
	fq := f / million
	if f%million < 0 {
		fq-- // floor, not truncation, so TrueFor is exact
	}
	return dt + q*ppm + fq
}

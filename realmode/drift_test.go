package realmode

import (
	"context"
	"testing"
	"time"

	"github.com/locksim/locksim/clock"
)

// TestDriftClockRunsSlow: a clock drifting by -40% measures 0.6 of the
// real time elapsed, and its sleeps and timeouts last 1/0.6 of theirs in
// real time.
func TestDriftClockRunsSlow(t *testing.T) {
	c := newDriftClock(-400_000)
	start, realStart := c.Now(), time.Now()
	if err := c.Sleep(context.Background(), 30*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	before := time.Since(realStart)
	got := c.Since(start)
	after := time.Since(realStart)
	if lo, hi := time.Duration(0.6*float64(before))-time.Millisecond, time.Duration(0.6*float64(after))+time.Millisecond; got < lo || got > hi {
		t.Errorf("Since = %v after %v–%v of real time, want 0.6 of it (%v–%v)", got, before, after, lo, hi)
	}
	if before < 50*time.Millisecond {
		t.Errorf("Sleep(30ms) on a clock at 0.6× returned after %v of real time, want at least 50ms", before)
	}
	ctx, cancel := c.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	dl, _ := ctx.Deadline()
	if d := dl.Sub(realStart.Add(after)); d < 49*time.Millisecond {
		t.Errorf("WithTimeout(30ms) ends %v after now in real time, want about 50ms", d)
	}
}

// TestJumpClockStepsNowNotSince: a jump moves Now by the step; elapsed
// time measured across it (Since) does not see it.
func TestJumpClockStepsNowNotSince(t *testing.T) {
	c := &jumpClock{Clock: clock.Real{}}
	before := c.Now()
	c.jump(time.Hour)
	if d := c.Now().Sub(before.Round(0)); d < time.Hour {
		t.Errorf("Now after a 1h jump is %v past the time before it, want at least 1h", d)
	}
	if d := c.Since(before); d >= time.Minute {
		t.Errorf("Since across the jump = %v, want the real elapsed time", d)
	}
}

// TestJumpClockSinceAfterAJump: elapsed time measured from a reading made
// after a jump is the real elapsed time too. Before, Since added minus
// the step: 20ms after a -500ms jump it read about 520ms, so a client
// whose clock stepped back saw every holding it took as long over.
func TestJumpClockSinceAfterAJump(t *testing.T) {
	for _, step := range []time.Duration{-500 * time.Millisecond, 500 * time.Millisecond} {
		c := &jumpClock{Clock: clock.Real{}}
		c.jump(step)
		start := c.Now()
		time.Sleep(20 * time.Millisecond) // real time: the clock under test is the real one, stepped
		if d := c.Since(start); d < 20*time.Millisecond || d > 400*time.Millisecond {
			t.Errorf("jump %v: Since a reading made after it, 20ms later = %v, want about 20ms", step, d)
		}
		c.jump(-step)
		if d := c.Since(start); d < 20*time.Millisecond || d > 400*time.Millisecond {
			t.Errorf("jump %v and back: Since = %v, want about 20ms", step, d)
		}
	}
}

// TestJumpClockOverDrift: a jump on a drifting clock (the two faults at
// once) keeps Since the drifted elapsed time.
func TestJumpClockOverDrift(t *testing.T) {
	c := &jumpClock{Clock: newDriftClock(0)}
	c.jump(-time.Second)
	start := c.Now()
	time.Sleep(20 * time.Millisecond) // real time: the clock under test is the real one, drifted and stepped
	if d := c.Since(start); d < 20*time.Millisecond || d > 400*time.Millisecond {
		t.Errorf("Since a reading made after a -1s jump on a drift clock, 20ms later = %v, want about 20ms", d)
	}
}

// TestJumpClockSinceOfADerivedTime: a time Now did not return (a deadline
// derived from a reading) is measured on the wall clock, which a jump
// moves, as the simulator's process clock measures it: a deadline 1s
// after a reading is 500ms nearer after a +500ms jump.
func TestJumpClockSinceOfADerivedTime(t *testing.T) {
	c := &jumpClock{Clock: clock.Real{}}
	deadline := c.Now().Add(time.Second)
	c.jump(500 * time.Millisecond)
	if d := -c.Since(deadline); d < 300*time.Millisecond || d > 500*time.Millisecond {
		t.Errorf("after a +500ms jump, a deadline 1s after a reading is %v away, want about 500ms", d)
	}
}

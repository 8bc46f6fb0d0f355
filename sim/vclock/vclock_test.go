package vclock

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

func TestDriftAndJump(t *testing.T) {
	c := New(5 * time.Millisecond)
	if got := c.Wall(0); got != int64(5*time.Millisecond) {
		t.Fatalf("Wall(0) = %d, want 5ms", got)
	}
	if err := c.SetDrift(int64(time.Second), 10_000); err != nil { // 1% fast from t=1s
		t.Fatal(err)
	}
	if got, want := c.Mono(int64(2*time.Second)), int64(2010*time.Millisecond); got != want {
		t.Errorf("Mono(2s) = %v, want %v", time.Duration(got), time.Duration(want))
	}
	c.Jump(-time.Second)
	if got, want := c.Mono(int64(2*time.Second)), int64(2010*time.Millisecond); got != want {
		t.Errorf("after a wall jump Mono(2s) = %v, want %v (jumps move the wall clock only)", time.Duration(got), time.Duration(want))
	}
	if got, want := c.Wall(int64(2*time.Second)), int64(2010*time.Millisecond-time.Second+5*time.Millisecond); got != want {
		t.Errorf("Wall(2s) = %v, want %v", time.Duration(got), time.Duration(want))
	}
	if c.Jumps() != 1 {
		t.Errorf("Jumps() = %d, want 1", c.Jumps())
	}
}

func TestSetDriftRejectsNonsense(t *testing.T) {
	c := New(0)
	for _, ppm := range []int64{-1_000_000, MinDriftPPM - 1, MaxDriftPPM + 1} {
		if err := c.SetDrift(0, ppm); err == nil {
			t.Errorf("SetDrift(0, %d) = nil, want an error", ppm)
		}
	}
}

// TestTrueForIsTight: a timer set for d on the clock fires at the first
// true instant at which the clock has advanced by d.
func TestTrueForIsTight(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := New(0)
		start := rapid.Int64Range(0, int64(time.Hour)).Draw(t, "start")
		ppm := rapid.Int64Range(MinDriftPPM, 1_000_000).Draw(t, "ppm")
		if err := c.SetDrift(start, ppm); err != nil {
			t.Fatal(err)
		}
		d := time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "d"))
		tr := c.TrueFor(d)
		if got := c.Mono(start+tr) - c.Mono(start); got < int64(d) {
			t.Fatalf("after TrueFor(%v)=%d the clock advanced %d < d", d, tr, got)
		}
		if got := c.Mono(start+tr-1) - c.Mono(start); got >= int64(d) {
			t.Fatalf("TrueFor(%v)=%d is not tight: the clock reached d by %d", d, tr, tr-1)
		}
	})
}

func TestMonoNeverGoesBack(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := New(0)
		if err := c.SetDrift(0, rapid.Int64Range(MinDriftPPM, MaxDriftPPM).Draw(t, "ppm")); err != nil {
			t.Fatal(err)
		}
		a := rapid.Int64Range(0, int64(100*time.Hour)).Draw(t, "a")
		b := a + rapid.Int64Range(0, 3).Draw(t, "step")
		if c.Mono(b) < c.Mono(a) {
			t.Fatalf("Mono(%d)=%d < Mono(%d)=%d", b, c.Mono(b), a, c.Mono(a))
		}
	})
}

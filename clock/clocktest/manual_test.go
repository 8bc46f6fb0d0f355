package clocktest

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"
)

func TestManualClockSleepWakesOnAdvance(t *testing.T) {
	c := NewManualClock(Epoch, nil)
	woke := make(chan error, 1)
	go func() { woke <- c.Sleep(context.Background(), 100*time.Millisecond) }()
	waitSleepers(t, c, 1)
	if err := c.Advance(99 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-woke:
		t.Fatalf("Sleep(100ms) returned %v after Advance(99ms)", err)
	default:
	}
	if err := c.Advance(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := <-woke; err != nil {
		t.Errorf("Sleep(100ms) after Advance to 100ms = %v, want nil", err)
	}
	if got, want := c.Since(Epoch), 100*time.Millisecond; got != want {
		t.Errorf("Since(start) = %v, want %v", got, want)
	}
}

// TestManualClockAdvanceWaitsForBackgroundWork: a loop started by Go that
// sleeps 10ms and then works (in real time) has done exactly its five
// rounds when Advance(55ms) returns, and the steps sum to 55ms.
func TestManualClockAdvanceWaitsForBackgroundWork(t *testing.T) {
	var stepped time.Duration
	c := NewManualClock(Epoch, func(d time.Duration) { stepped += d })
	var rounds atomic.Int64
	ctx, cancel := context.WithCancel(context.Background())
	c.Go(func() {
		for c.Sleep(ctx, 10*time.Millisecond) == nil {
			time.Sleep(time.Millisecond) // real work, seen by no clock
			rounds.Add(1)
		}
	})
	if err := c.Advance(55 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got := rounds.Load(); got != 5 {
		t.Errorf("rounds after Advance(55ms) = %d, want 5", got)
	}
	if stepped != 55*time.Millisecond {
		t.Errorf("steps sum to %v, want 55ms", stepped)
	}
	cancel()
	if !Eventually(5*time.Second, func() bool { return c.Running() == 0 }) {
		t.Errorf("Running() = %d after cancel, want 0", c.Running())
	}
}

func TestManualClockWithTimeout(t *testing.T) {
	c := NewManualClock(Epoch, nil)
	ctx, cancel := c.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, ok := ctx.Deadline(); ok {
		t.Errorf("Deadline() reports a wall-clock deadline; want none")
	}
	if err := c.Advance(49 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if err := ctx.Err(); err != nil {
		t.Fatalf("Err() = %v at 49ms of a 50ms timeout, want nil", err)
	}
	if err := c.Advance(time.Millisecond); err != nil {
		t.Fatal(err)
	}
	<-ctx.Done()
	if err := ctx.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Err() = %v at 50ms, want DeadlineExceeded", err)
	}

	ctx2, cancel2 := c.WithTimeout(context.Background(), 50*time.Millisecond)
	cancel2()
	if err := ctx2.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err() after cancel = %v, want Canceled", err)
	}
	if err := c.Advance(time.Second); err != nil {
		t.Fatal(err)
	}
	if err := ctx2.Err(); !errors.Is(err, context.Canceled) {
		t.Errorf("Err() of a cancelled timeout after its time passed = %v, want Canceled", err)
	}
}

func TestManualClockSleepHonoursContext(t *testing.T) {
	c := NewManualClock(Epoch, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Sleep(ctx, time.Hour) }()
	waitSleepers(t, c, 1)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep after cancel = %v, want Canceled", err)
	}
	waitSleepers(t, c, 0)
}

// TestManualClockAdvanceReportsStuckWork: background work that never comes
// back to Sleep makes Advance fail instead of moving time under it.
func TestManualClockAdvanceReportsStuckWork(t *testing.T) {
	c := NewManualClock(Epoch, nil)
	c.Settle = 50 * time.Millisecond
	release := make(chan struct{})
	defer close(release)
	c.Go(func() { <-release })
	if err := c.Advance(time.Second); err == nil {
		t.Errorf("Advance with a goroutine blocked outside the clock = nil, want an error")
	}
	if got := c.Since(Epoch); got != 0 {
		t.Errorf("time moved %v although background work was busy", got)
	}
}

// Epoch is where the clocks of these tests start.
var Epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func waitSleepers(t *testing.T, c *ManualClock, n int) {
	t.Helper()
	ok := Eventually(5*time.Second, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.sleepers == n
	})
	if !ok {
		t.Fatalf("sleepers never reached %d", n)
	}
}

// TestManualClockSequentialAndSleepMoves: Sequential runs Parallel in
// index order; SleepMoves moves the time by each Sleep (firing the
// deadlines it passes) and runs no background work.
func TestManualClockSequentialAndSleepMoves(t *testing.T) {
	c := NewManualClock(Epoch, nil)
	c.Sequential, c.SleepMoves = true, true
	var order []int
	c.Parallel(4, func(i int) { order = append(order, i) })
	if fmt.Sprint(order) != "[0 1 2 3]" {
		t.Errorf("Parallel order = %v, want [0 1 2 3]", order)
	}
	ctx, cancel := c.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := c.Sleep(context.Background(), 60*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	if got := c.Since(Epoch); got != 60*time.Millisecond {
		t.Errorf("after Sleep(60ms) the time moved %v, want 60ms", got)
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
		t.Errorf("a 50ms deadline after a 60ms sleep: Err = %v, want DeadlineExceeded", ctx.Err())
	}
	ran := false
	c.Go(func() { ran = true })
	c.Close()
	if ran {
		t.Errorf("Go ran its function under SleepMoves")
	}
}

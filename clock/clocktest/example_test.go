package clocktest_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/clock/clocktest"
)

// A background sleeper wakes only when the test moves the time, and
// Advance returns once it has come to rest again.
func ExampleManualClock() {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	var moved time.Duration
	clk := clocktest.NewManualClock(start, func(d time.Duration) { moved += d })
	defer clk.Close()
	woke := make(chan time.Duration, 1)
	clk.Go(func() {
		if clk.Sleep(context.Background(), 300*time.Millisecond) == nil {
			woke <- clk.Since(start)
		}
	})
	if err := clk.Advance(time.Second); err != nil {
		fmt.Println(err)
	}
	fmt.Println("woke after", <-woke, "; time moved", moved)
	// Output: woke after 300ms ; time moved 1s
}

// Under SleepMoves the code's own Sleep moves the time: a test of one
// goroutine never calls Advance.
func ExampleManualClock_sleepMoves() {
	start := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	clk := clocktest.NewManualClock(start, nil)
	clk.SleepMoves = true
	_ = clk.Sleep(context.Background(), 40*time.Millisecond)
	_ = clk.Sleep(context.Background(), 2*time.Millisecond)
	fmt.Println(clk.Since(start))
	// Output: 42ms
}

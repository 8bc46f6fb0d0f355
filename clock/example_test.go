package clock_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/locksim/locksim/clock"
)

// Lock code takes a clock.Clock and never calls the time package itself;
// in production that Clock is clock.Real. Here Parallel fans out three
// calls and returns when all of them have, and WithTimeout ends a Sleep
// that would have lasted an hour.
func ExampleReal() {
	var c clock.Clock = clock.Real{}

	var done atomic.Int32
	c.Parallel(3, func(i int) { done.Add(1) })
	fmt.Println("parallel calls returned:", done.Load())

	ctx, cancel := c.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := c.Sleep(ctx, time.Hour)
	fmt.Println("sleep:", err, errors.Is(err, context.DeadlineExceeded))
	fmt.Println("woke well before the hour:", c.Since(start) < time.Minute)
	// Output:
	// parallel calls returned: 3
	// sleep: context deadline exceeded true
	// woke well before the hour: true
}

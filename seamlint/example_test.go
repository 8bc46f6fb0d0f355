package seamlint_test

import (
	"fmt"

	"github.com/locksim/locksim/seamlint"
)

// Source reports each call that escapes the seams, by file, line and
// column; the same code written against a clock.Clock passes.
func ExampleSource() {
	escaping := []byte(`package mylock

import (
	"math/rand/v2"
	"time"
)

func wait() {
	deadline := time.Now().Add(time.Second)
	go renew(deadline)
	time.Sleep(time.Duration(rand.IntN(10)) * time.Millisecond)
}
`)
	violations, err := seamlint.Source("mylock.go", escaping)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range violations {
		fmt.Println(v)
	}

	seamed := []byte(`package mylock

import (
	"context"
	"time"

	"github.com/locksim/locksim/clock"
)

func wait(ctx context.Context, c clock.Clock) error {
	c.Go(func() {})
	return c.Sleep(ctx, 10*time.Millisecond)
}
`)
	violations, err = seamlint.Source("mylock.go", seamed)
	fmt.Println(len(violations), err)
	// Output:
	// mylock.go:9:14: time.Now escapes the Clock/Rand seams
	// mylock.go:10:2: bare go statement (use Clock.Go or Clock.Parallel)
	// mylock.go:11:2: time.Sleep escapes the Clock/Rand seams
	// mylock.go:11:27: rand.IntN escapes the Clock/Rand seams
	// 0 <nil>
}

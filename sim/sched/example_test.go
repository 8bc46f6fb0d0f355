package sched_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// Simulated goroutines run real code one at a time in virtual time: three
// sleepers started in one order wake in time order, and a paused process
// resumes none of its goroutines until the pause ends. No real time
// passes.
func ExampleSched() {
	s := sched.New()
	p := s.NewProc("c1", vclock.New(0))
	for _, d := range []time.Duration{30, 10, 20} {
		p.Spawn(fmt.Sprint("sleep ", d), func() {
			_ = p.Sleep(context.Background(), d*time.Millisecond)
			fmt.Printf("t=%v woke after %v\n", time.Duration(s.Now()), d*time.Millisecond)
		})
	}
	s.At(15*time.Millisecond.Nanoseconds(), func() { p.Pause(10 * time.Millisecond) })
	if err := s.RunUntil(time.Second.Nanoseconds()); err != nil {
		fmt.Println(err)
	}
	if err := s.Shutdown(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// t=10ms woke after 10ms
	// t=25ms woke after 20ms
	// t=30ms woke after 30ms
}

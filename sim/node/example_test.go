package node_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/sched"
	"github.com/locksim/locksim/sim/vclock"
)

// A simulated Redis node executes commands in the scheduler's true time,
// its TTLs following its own clock: a lock taken with SET NX PX 100 is
// refused to a second owner, and is free again once more than 100ms have passed —
// or at once when the node's clock jumps ahead.
func ExampleNode_Exec() {
	s := sched.New()
	clk := vclock.New(0)
	n, err := node.New(node.Config{Name: "n1", Clock: clk}, s)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer n.Close()
	set := func(owner string) string {
		r := n.Exec([]string{"SET", "lock", owner, "NX", "PX", "100"})
		if r.IsNil() {
			return "(nil)"
		}
		return r.Str
	}
	fmt.Println("c1:", set("c1"))
	fmt.Println("c2:", set("c2"))

	end := (101 * time.Millisecond).Nanoseconds()
	s.At(end, func() {})
	if err := s.RunUntil(end); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("after 101ms, c2:", set("c2"))

	clk.Jump(2 * time.Second)
	fmt.Println("after a 2s jump, c3:", set("c3"))
	fmt.Println("owner:", n.Exec([]string{"GET", "lock"}).Str)
	// Output:
	// c1: OK
	// c2: (nil)
	// after 101ms, c2: OK
	// after a 2s jump, c3: OK
	// owner: c3
}

package fault_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/sim/fault"
)

// A fault is plain data: what happens, to whom, and when. Validate checks
// it against the run it is meant for and names the first bad field.
func ExampleFault_Validate() {
	pause := fault.Fault{
		Kind:   fault.Pause,
		Target: "c1",
		When:   fault.When{Client: "c1", Point: fault.Write, N: 1},
		For:    150 * time.Millisecond,
	}
	fmt.Println("pause c1 on its first write:", pause.Validate(1, 2), pause.When.Triggered())

	crash := fault.Fault{Kind: fault.Crash, Target: "n3", When: fault.When{At: 10 * time.Millisecond}}
	fmt.Println("crash n3 with one node:", crash.Validate(1, 2) != nil)
	fmt.Println("n3 is a node at index", fault.Index("n3"), fault.IsNode("n3"), fault.IsClient("n3"))
	// Output:
	// pause c1 on its first write: <nil> true
	// crash n3 with one node: true
	// n3 is a node at index 2 true false
}

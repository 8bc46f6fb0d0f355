package simprop_test

import (
	"fmt"

	"github.com/locksim/locksim/sim/simprop"
)

// A counterexample that rapid found and shrank is kept as a file and
// replayed on every run: it still breaks the broken variant, and the
// correct pattern that variant imitates passes the same schedule.
func ExampleReplay() {
	c, err := simprop.Load("testdata/counterexamples/basic-del.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := simprop.MutationOf("basic-del")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("property:", c.Property.Name, "faults:", len(c.Case.Scenario.Faults))
	for _, name := range []string{m.Variant, m.Correct} {
		violation, err := simprop.Replay(c, name)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s broken: %v\n", name, violation != "")
	}
	// Output:
	// property: mutex faults: 1
	// basic-del broken: true
	// basic broken: false
}

package simbench_test

import (
	"fmt"

	"github.com/locksim/locksim/bench/simbench"
	"github.com/locksim/locksim/pattern"
)

// Run measures how many seeds per minute the simulator explores for each
// pattern. Rates depend on the machine; the commands a seed sends do not,
// so that is what is printed here.
func ExampleRun() {
	var pats []pattern.Pattern
	for _, name := range []string{"basic", "redlock"} {
		p, err := pattern.Lookup(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		pats = append(pats, p)
	}
	res, err := simbench.Run(simbench.Config{Patterns: pats, Scenario: "gc-pause", Seeds: 2, Reps: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range res.Rows {
		fmt.Printf("%s nodes=%d reps=%d commands per seed=%.1f measured=%v\n", r.Pattern, r.Nodes, r.Reps, r.CmdsPerSeed, r.PerMin.Median > 0)
	}
	// Output:
	// basic nodes=1 reps=1 commands per seed=103.0 measured=true
	// redlock nodes=5 reps=1 commands per seed=455.5 measured=true
}

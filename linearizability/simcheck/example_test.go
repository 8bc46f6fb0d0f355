package simcheck_test

import (
	"fmt"
	"time"

	"github.com/locksim/locksim/linearizability"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// The agreement this package tests, on one run: under a GC pause the
// basic lock lets two clients write, the simulator's oracles see the
// overlap in true time, and porcupine finds the recorded history of
// critical sections illegal. The fenced lock under the same pause keeps
// its store consistent, and its history checks ok.
func Example() {
	for _, name := range []string{"basic", "fenced"} {
		p, err := pattern.Lookup(name)
		if err != nil {
			fmt.Println(err)
			return
		}
		s, err := scenario.Lookup("gc-pause", p.Nodes)
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: s, Seed: 1})
		if err != nil {
			fmt.Println(err)
			return
		}
		rep, err := linearizability.CheckHistory(res.History, time.Minute)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: oracles violated %v, lost updates %d; porcupine %s\n", name, res.Violated, res.Safety.LostUpdates, rep.Verdict)
	}
	// Output:
	// basic: oracles violated [mutex], lost updates 2; porcupine illegal
	// fenced: oracles violated [], lost updates 0; porcupine ok
}

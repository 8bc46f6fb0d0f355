package sim_test

import (
	"fmt"
	"log"

	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// ExampleRun_ownPattern runs a pattern defined outside locksim — here a
// Basic lock built with the user's own settings — under a scenario file's
// text, with nothing but the public packages.
func ExampleRun_ownPattern() {
	mine := pattern.Pattern{Name: "mine", Nodes: 1, Claims: pattern.Claims{Mutex: true},
		New: pattern.Single(func(r locks.Redis, key string, o locks.Options) (locks.Locker, error) {
			return locks.NewBasic(r, key, o)
		})}
	sc, err := scenario.ParseString("scenario long-pause\nstart clients=2 duration=5s\npattern ttl=1s\npause c1 on=write for=1500ms\n")
	if err != nil {
		log.Fatal(err)
	}
	res, err := sim.Run(sim.Config{Pattern: mine, Scenario: sc, Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Pattern, res.Scenario, res.Violated)
	// Output: mine long-pause [mutex]
}

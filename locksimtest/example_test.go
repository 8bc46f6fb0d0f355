package locksimtest_test

import (
	"fmt"
	"log"
	"os"

	"github.com/locksim/locksim/locksimtest"
	"github.com/locksim/locksim/pattern"
)

// ExampleCheck gates fenced under every built-in scenario, its two known
// limitations declared; then basic with no line at all, which breaks
// mutex wherever a pause, a clock or a lost node outlasts its TTL.
func ExampleCheck() {
	dir, err := os.MkdirTemp("", "counterexamples")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	fenced, _ := pattern.Lookup("fenced")
	rep, err := locksimtest.Check(fenced, locksimtest.Options{Seeds: 2, Dir: dir, Expect: []string{
		"failover-async-replication        breaks safe-store,fencing,loss-signal  # a replica that missed the INCR",
		"node-restart-without-persistence  breaks safe-store,fencing,loss-signal  # the counter is lost",
		"client-clock-drift                breaks loss-signal  # the timer runs on a slow clock",
		"node-clock-jump                   breaks loss-signal  # the key expires early",
	}})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rep.Summary())
	basic, _ := pattern.Lookup("basic")
	if rep, err = locksimtest.Check(basic, locksimtest.Options{Seeds: 2, Dir: dir}); err != nil {
		log.Fatal(err)
	}
	for _, f := range rep.Findings {
		fmt.Println(f.Scenario, f.Claim, "seed", f.Seed)
	}
	// Output:
	// fenced: 22 runs under 11 scenarios: as expected
	// client-clock-drift mutex seed 1
	// client-clock-drift loss-signal seed 1
	// failover-async-replication mutex seed 1
	// failover-async-replication loss-signal seed 1
	// gc-pause mutex seed 1
	// node-clock-jump mutex seed 1
	// node-clock-jump loss-signal seed 1
	// node-restart-without-persistence mutex seed 1
	// node-restart-without-persistence loss-signal seed 1
	// slow-work mutex seed 1
}

package bench_test

import (
	"context"
	"fmt"
	"time"

	"github.com/locksim/locksim/bench"
)

// A sweep of the basic lock and the floor (a hand-written SET NX PX and
// Lua release) against embedded miniredis, one client on distinct keys,
// for a few milliseconds. The rates depend on the machine and are not
// printed; what the sweep measured is.
func ExampleRun() {
	tg, err := bench.Embedded(1)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer tg.Close()
	res, err := bench.Run(context.Background(), tg, bench.Subjects(), bench.Config{
		Clients:  []int{1},
		Keys:     []bench.KeyMode{bench.Distinct},
		Families: []bench.Family{bench.Single},
		Subjects: []string{"basic"},
		// A window long enough that a loaded machine still completes a
		// cycle in it: the example shows the shape of a result, not a speed.
		Timing: bench.Timing{Duration: time.Second, TTL: time.Second},
		Reps:   1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("target:", res.Target, "demo:", res.Demo)
	for _, r := range res.Rows {
		fmt.Printf("%s %s clients=%d keys=%s cycles=%v errors=%d\n", r.Family, r.Subject, r.Clients, r.Keys, r.CyclesPerSec > 0, r.Errors)
	}
	// Output:
	// target: miniredis (demo) demo: true
	// single floor clients=1 keys=distinct cycles=true errors=0
	// single basic clients=1 keys=distinct cycles=true errors=0
}

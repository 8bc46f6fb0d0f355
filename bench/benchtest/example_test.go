package benchtest_test

import (
	"fmt"
	"testing"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/bench/benchtest"
)

// Cycles is a per-cycle microbenchmark of one subject (here the floor:
// SET NX PX and a Lua release) on a Target, real redis-servers when they
// are installed; testing.Benchmark runs it outside go test -bench. Its
// speed is the machine's; that it completed cycles is what is checked.
func ExampleCycles() {
	r := testing.Benchmark(func(b *testing.B) {
		benchtest.Cycles(b, benchtest.Target(b, 1), bench.FloorSubject(), 1)
	})
	fmt.Println("cycles measured:", r.N > 0)
	// Output:
	// cycles measured: true
}

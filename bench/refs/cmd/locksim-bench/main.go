// Command locksim-bench is `locksim bench` with the library references
// (bsm/redislock, go-redsync/redsync) measured beside the patterns.
//
//	cd bench/refs && go run ./cmd/locksim-bench --spawn 5 --out ../../reports/bench
package main

import (
	"fmt"
	"os"

	"github.com/locksim/locksim/bench/benchcmd"
	"github.com/locksim/locksim/bench/refs"
)

func main() {
	cmd := benchcmd.New(refs.Subjects(), "")
	cmd.Use = "locksim-bench"
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	if err := cmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "locksim-bench:", err)
		os.Exit(benchcmd.ExitCode(err)) // as locksim: 2 bad usage, 3 a failing server, 130 an interrupt
	}
}

package main

import (
	"github.com/spf13/cobra"

	"github.com/locksim/locksim/bench/benchcmd"
)

func init() { commands = append(commands, newBenchCmd) }

// newBenchCmd is `locksim bench`. This binary links the patterns and the
// hand-written references only; the library references (bsm/redislock,
// go-redsync/redsync) live in the bench/refs module, whose command is the
// same with them added.
func newBenchCmd() *cobra.Command {
	return benchcmd.New(nil, "bench: library references (bsm/redislock, redsync) are not linked into locksim; "+
		"`make bench` or `cd bench/refs && go run ./cmd/locksim-bench` runs them too")
}

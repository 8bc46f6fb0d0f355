package cli

import (
	"github.com/spf13/cobra"

	"github.com/locksim/locksim/bench/benchcmd"
)

// newBenchCmd is `locksim bench`. This binary links the patterns and the
// hand-written references only; the library references (bsm/redislock,
// go-redsync/redsync) live in the bench/refs module, whose command is the
// same with them added.
func newBenchCmd() *cobra.Command {
	cmd := benchcmd.New(nil, "bench: library references (bsm/redislock, redsync) are not linked into locksim; "+
		"`make bench` or `cd bench/refs && go run ./cmd/locksim-bench` runs them too")
	run := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error { return benchError(run(c, args)) }
	return cmd
}

// benchError marks bench's error with locksim's exit status: bad usage
// (2), or a failing environment (3): a server unreachable, one that
// stopped answering, an I/O error. An interrupt (its error wraps
// context.Canceled) exits 130 after the servers bench started are stopped.
func benchError(err error) error {
	switch {
	case err == nil:
		return nil
	case benchcmd.ExitCode(err) == benchcmd.ExitUsage:
		return usageError{err}
	}
	return runtimeError{err}
}

// Command locksim runs Redis lock patterns: a demo, simulated experiments
// with injected faults, a correctness gate for CI, benchmarks and reports.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"
)

// Exit codes.
const (
	exitOK        = 0
	exitViolation = 1   // a violation was found, or a gate failed
	exitUsage     = 2   // bad flag, file or value
	exitRuntime   = 3   // the environment failed: Redis unreachable, an I/O error
	exitInterrupt = 130 // SIGINT or SIGTERM, after what finished was flushed
)

// usageError marks an error caused by bad input: exit 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// runtimeError marks a failure of the environment, not of the input:
// exit 3.
type runtimeError struct{ err error }

func (e runtimeError) Error() string { return e.err.Error() }
func (e runtimeError) Unwrap() error { return e.err }

func runtimef(format string, a ...any) error { return runtimeError{fmt.Errorf(format, a...)} }

// violationError marks a completed run that found a violation: exit 1.
type violationError struct{ msg string }

func (e violationError) Error() string { return e.msg }

// commands registers each subcommand; files add theirs in init.
var commands []func() *cobra.Command

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "locksim",
		Short:         "Test Redis distributed-lock patterns under faults, check them, benchmark them",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	for _, mk := range commands {
		root.AddCommand(mk())
	}
	return root
}

// quietLogger drops go-redis's internal log lines (dial retries of a node
// that is down on purpose); errors reach the user through return values.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func main() {
	redis.SetLogger(quietLogger{})
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		fmt.Fprintln(os.Stderr, "locksim:", err)
	}
	return exitCode(err)
}

// exitCode maps a command's error to the exit status.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ve violationError
	if errors.As(err, &ve) {
		return exitViolation
	}
	var re runtimeError
	if errors.As(err, &re) {
		return exitRuntime
	}
	return exitUsage
}

package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"syscall"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"

	"github.com/locksim/locksim/bench/benchcmd"
	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/buildinfo"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
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

// interruptError marks a run stopped by SIGINT or SIGTERM, after what
// had finished was written: exit 130.
type interruptError struct{ err error }

func (e interruptError) Error() string { return e.err.Error() }
func (e interruptError) Unwrap() error { return e.err }

// violationError marks a completed run that found a violation: exit 1.
type violationError struct{ msg string }

func (e violationError) Error() string { return e.msg }

// subcommands builds every subcommand of the root, in the order of their
// files (help sorts them by name).
func subcommands() []*cobra.Command {
	return []*cobra.Command{
		newAdviseCmd(), newBenchCmd(), newCheckCmd(), newDemoCmd(), newExploreCmd(), newListCmd(), newMergeCmd(),
		newRealCmd(), newRealClientCmd(), newReportCmd(), newRunCmd(), newSweepCmd(), newVersionCmd(),
	}
}

// exitCodesHelp ends every command's --help.
const exitCodesHelp = `

Exit status: 0 clean; 1 a violation or a failed gate; 2 bad usage (a flag,
file or value, lock settings a pattern refuses, or a scenario over the
limit of 100,000 fault occurrences); 3 the environment failed (Redis
unreachable, an I/O error such as a full disk, a report --out directory
another report is writing), a simulated run reached a cap (1,000,000
recorded operations, 2 GiB of live heap, 200,000,000 events) or met a
defect of the simulator (no verdict); 130 interrupted (SIGINT or SIGTERM), after writing what had
finished.`

func newRoot() *cobra.Command {
	// Every command selects the broken variants by name beside the
	// correct patterns.
	broken.Extend(pattern.Default)
	root := &cobra.Command{
		Use:           "locksim",
		Short:         "Test Redis distributed-lock patterns under faults, check them, benchmark them",
		Version:       buildinfo.Version(),
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("unknown command %q for %q (see locksim --help)", args[0], cmd.CommandPath())
			}
			return cmd.Help()
		},
	}
	cobra.AddTemplateFunc("buildinfo", buildinfo.String) // asked only when --version is given
	root.SetVersionTemplate("{{buildinfo}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageError{err} })
	root.AddCommand(subcommands()...)
	for _, c := range root.Commands() {
		usageArgs(c)
	}
	root.Long = root.Short + "." + exitCodesHelp
	return root
}

// usageArgs makes the argument errors of c and its subcommands usage
// errors (exit 2), and ends their help with the exit codes.
func usageArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return usageError{err}
			}
			return nil
		}
	}
	if c.Long == "" {
		c.Long = c.Short + "."
	}
	c.Long += exitCodesHelp
	for _, sub := range c.Commands() {
		usageArgs(sub)
	}
}

// interruptible is parent, done on the first SIGINT or SIGTERM; a second
// signal takes its default action (the process ends at once).
func interruptible(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}

// quietLogger drops go-redis's internal log lines (dial retries of a node
// that is down on purpose); errors reach the user through return values.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

// Main registers each of patterns beside the built-in ones, runs the
// locksim command tree on os.Args and exits the process with the
// command's status (0 clean, 1 a violation or a failed gate, 2 bad usage,
// 3 the environment failed, 130 interrupted: every command's --help ends
// with the full list). It does not return. A pattern that does not
// Validate, or whose name a built-in or an earlier pattern already has,
// is bad usage: Main prints "locksim: " and the reason to stderr and
// exits 2 before any command runs. With patterns given, every replay
// command printed names this binary (its file name, as os.Args[0] gives
// it), since the locksim command does not know them.
func Main(patterns ...pattern.Pattern) {
	broken.Extend(pattern.Default) // their names are taken too
	if err := register(patterns); err != nil {
		fmt.Fprintln(os.Stderr, "locksim:", err)
		os.Exit(exitUsage)
	}
	if len(patterns) > 0 {
		// Replay commands name this binary: locksim does not know the
		// user's patterns.
		explore.SetCommand(filepath.Base(os.Args[0]))
	}
	os.Exit(start(os.Args[1:]))
}

// register adds each of patterns to the global registry, in order, so
// that every command sees them. It stops at the first pattern that does
// not Validate or whose name is taken, with an error naming it (and
// leaves the ones before it registered).
func register(patterns []pattern.Pattern) error {
	for _, p := range patterns {
		if err := p.Validate(); err != nil {
			return err
		}
		if _, err := pattern.Lookup(p.Name); err == nil {
			return fmt.Errorf("pattern %s: the name is taken (by a built-in pattern or an earlier one of Main's)", p.Name)
		}
		pattern.Register(p)
	}
	return nil
}

// start sets the process up for a command (go-redis's own log lines
// dropped, the soft memory limit set) and runs the command tree on args,
// returning the exit status.
func start(args []string) int {
	redis.SetLogger(quietLogger{})
	softMemoryLimit()
	return run(args)
}

// softMemoryLimit sets the runtime's soft memory limit to
// sim.SoftMemoryLimit, unless GOMEMLIMIT gives one: the collector then
// holds a simulation's heap near its live bytes, which sim.MaxLiveHeap
// caps.
func softMemoryLimit() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(sim.SoftMemoryLimit)
	}
}

func run(args []string) int {
	root := newRoot()
	root.SetArgs(args)
	err := root.Execute()
	if err != nil {
		fmt.Fprintln(os.Stderr, "locksim:", err)
		if errors.Is(err, sim.ErrDefect) {
			fmt.Fprintln(os.Stderr, "locksim: this is a defect of the simulator, not a finding about the lock: the run has no verdict; the command and seed above replay it")
		}
	}
	return exitCode(err)
}

// untilInterrupted runs fn (work that cannot be stopped half way). Its
// error is an environment failure; on SIGINT or SIGTERM it returns at
// once with an interrupt saying what (nothing written, say), and fn is
// left to end with the process.
func untilInterrupted[T any](parent context.Context, what string, fn func() (T, error)) (T, error) {
	ctx, stop := interruptible(parent)
	defer stop()
	type outcome struct {
		v   T
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		v, err := fn()
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		if o.err != nil {
			return o.v, runtimeError{o.err}
		}
		return o.v, nil
	case <-ctx.Done():
		var zero T
		return zero, interruptError{fmt.Errorf("interrupted: %s", what)}
	}
}

// exitCode maps a command's error to the exit status. An error not
// marked as bad usage, a violation or an interrupt is a failure of the
// environment (exit 3), never bad usage.
func exitCode(err error) int {
	var (
		ve violationError
		ue usageError
		ie interruptError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ie), errors.Is(err, context.Canceled):
		// Only a signal cancels a command's context (see interruptible).
		return exitInterrupt
	case errors.As(err, &ve):
		return exitViolation
	case errors.As(err, &ue), benchcmd.IsUsage(err):
		return exitUsage
	}
	return exitRuntime
}

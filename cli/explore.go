package cli

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/term"
)

// defaultExploreSeeds is explore's seeds per cell, and the count run's
// explore line suggests.
const defaultExploreSeeds = 100

type exploreFlags struct {
	plan             explore.Plan
	asJSON, progress bool
}

// exploreHelp is the help of locksim explore.
const exploreHelp = `Runs every seed of every cell (pattern × scenario) in the simulator, on
--parallel cores, and prints per cell: runs, violating runs, the claims
broken, the lowest violating seed, lost updates, overlaps, fence
violations, acquisitions per run, mean wait, stuck clients, the
violations of the pattern's claims per simulated hour and per million
acquisitions (counted as run and the report count them), a replay
command for every cell that violated a claim, a "not claimed" line for
every cell whose oracles found breaks of a claim its pattern does not make
(counted in no rate), a "one seed" line for every cell of one run (a
verdict of one seed is no rate), and a FAULT NOT FIRED line
for every fault of a scenario that did not fire in some run (with how
many, and why in the lowest such seed). The result is the same for
the same arguments whatever --parallel is.

--shard i/n runs, of every cell's seeds, those with seed % n == i (seeds
are absolute: --seed-start 10 --seeds 4 --shard 0/2 runs seeds 10 and 12).
Run the n shards anywhere with --json and combine them with
'locksim merge': the result is the report of one unsharded run.

explore reports; it is not a gate: it exits 0 whatever it finds. On SIGINT
or SIGTERM it stops, prints the runs that finished as a result marked
partial (text and JSON; merge refuses it) and exits 130. Every path is
checked before anything runs: --out must be writable and no scenario file.
Progress goes to stderr: a bar on a terminal (or with --progress), plain
lines otherwise.`

func newExploreCmd() *cobra.Command {
	var f exploreFlags
	cmd := &cobra.Command{
		Use:   "explore --pattern P|all --scenario S|FILE|all",
		Short: "Run many seeds of patterns × scenarios on every core and aggregate each cell",
		Long:  exploreHelp,
		Example: `  locksim explore --pattern basic --scenario gc-pause --seeds 200
  locksim explore --pattern all --scenario all --seeds 50 --parallel 2
  locksim explore --pattern redlock --scenario my-faults.txt --seeds 1000 --json --out redlock.json
  locksim explore --pattern all --scenario all --seeds 10000 --shard 3/8 --json --out shard3.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runExplore(cmd, f) },
	}
	f.bind(cmd.Flags())
	return cmd
}

// bind defines the flags of the command into f.
func (f *exploreFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.plan.Pattern, "pattern", "", "pattern name, comma-separated names, or all (see locksim list)")
	fl.StringVar(&f.plan.Scenario, "scenario", "", "built-in scenario or scenario file (comma-separated for several), or all")
	fl.IntVar(&f.plan.Seeds.Count, "seeds", defaultExploreSeeds, "seeds per cell")
	fl.Uint64Var(&f.plan.Seeds.Start, "seed-start", 1, "first seed")
	fl.IntVar(&f.plan.Parallel, "parallel", runtime.GOMAXPROCS(0), "runs at once")
	fl.StringVar(&f.plan.Shard, "shard", "", "run shard i of n: the seeds with seed % n == i")
	fl.BoolVar(&f.asJSON, "json", false, "print JSON (what locksim merge reads)")
	fl.BoolVar(&f.progress, "progress", false, "draw a progress bar even when stderr is not a terminal")
	fl.StringVar(&f.plan.Out, "out", "", "write the result to this file instead of stdout")
}

func runExplore(cmd *cobra.Command, f exploreFlags) error {
	cells, opt, err := f.plan.Build()
	if err != nil {
		return usageError{err} // each error of Build names the flag at fault
	}
	ctx, stop := interruptible(cmd.Context())
	defer stop()
	opt.Progress = progressReporter(cmd.ErrOrStderr(), f.progress, "explore")
	rep, runErr := explore.Run(ctx, cells, opt)
	if rep == nil {
		return runtimeError{runErr}
	}
	err = writeOutput(cmd.OutOrStdout(), "--out", f.plan.Out, func(w io.Writer) error {
		if f.asJSON {
			return rep.WriteJSON(w)
		}
		return rep.WriteText(w)
	})
	if err != nil {
		return err
	}
	if rep.Partial != nil {
		return interruptError{fmt.Errorf("interrupted: the result above is partial (%d of %d runs)", rep.Partial.Done, rep.Partial.Total)}
	}
	if runErr != nil {
		return runtimeError{runErr}
	}
	return nil
}

// progressReporter shows progress on stderr: a bar when stderr is a
// terminal or bar is set, otherwise a plain line every 10s and at the end.
func progressReporter(stderr io.Writer, bar bool, what string) func(done, total int) {
	start := time.Now()
	if bar || term.IsTerminal(stderr) {
		var pb *progressbar.ProgressBar
		return func(done, total int) {
			if pb == nil {
				pb = progressbar.NewOptions(total, progressbar.OptionSetWriter(stderr), progressbar.OptionSetDescription(what),
					progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionThrottle(100*time.Millisecond))
			}
			_ = pb.Set(done)
			if done == total {
				_ = pb.Finish()
				fmt.Fprintln(stderr)
			}
		}
	}
	last := start
	return func(done, total int) {
		if now := time.Now(); done == total || now.Sub(last) >= 10*time.Second {
			last = now
			fmt.Fprintf(stderr, "%s: %d/%d runs (%d%%) in %v\n", what, done, total, done*100/total, now.Sub(start).Round(time.Second))
		}
	}
}

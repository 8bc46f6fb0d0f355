package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/node"
	"github.com/locksim/locksim/sim/scenario"
)

type runFlags struct {
	pattern, scenario  string
	seed               uint64
	asJSON, show       bool
	trace, historyFile string
	backend            string
	viz                string
}

// runHelp is the help of locksim run.
const runHelp = `run simulates a lock pattern — the real code from package locks — under a
scenario's faults, deterministically: the same pattern, scenario and seed
always give the same trace, history and verdict.

The scenario is a built-in name (see locksim list) or a scenario file
(format: docs/scenarios.md in the source tree, or go doc
github.com/locksim/locksim/sim/scenario). A built-in uses
the pattern's node count.

It exits 1 when something the pattern claims was violated (the seed and a
replay command are printed). A verdict is of one seed: an "ok" says so,
and every run ends with the explore command that measures the rate over
many (run takes one pattern and one scenario; for all, or a list, use
explore). The rates count what the verdict counts, violations of the
pattern's claims, per simulated hour and per million acquisitions; what
the oracles found of a claim the pattern does not make (fenced's overlaps,
made harmless by its store's fencing) is printed apart, on an "unclaimed"
line and marked on each violation, and counted in no rate. Progress is a
claim like the others: a run in which some client wanted the lock and none
held it for longer than the pattern's bound (5 TTL for the built-ins: a
lock held on after its holder was gone, a queue that serves nobody) is a
"stall" violation and exits 1. The verdict goes to stdout (--json for
machines); --trace writes the readable trace (- for stdout, not with
--json: the two would interleave), --history the history for porcupine,
--viz porcupine's HTML visualisation of the history's check, with the
faults on the timeline. Every output path is checked before the run: it
must be writable, and neither the scenario file nor another output. Each
file is written aside and renamed into place, so a failed run leaves the
old one. --show-scenario prints the resolved scenario as a file and runs
nothing: it takes no --json, --trace, --history or --viz.`

func newRunCmd() *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run --pattern P --scenario S|FILE [--seed N]",
		Short: "Simulate one pattern under one scenario with one seed, and judge it",
		Long:  runHelp,
		Example: `  locksim run --pattern basic --scenario gc-pause --seed 1
  locksim run --pattern basic --scenario gc-pause --seed 1 --viz basic-gc-pause.html
  locksim run --pattern fenced --scenario gc-pause --seed 1 --trace - | less
  locksim run --pattern redlock --scenario node-clock-jump --seed 1 --json --history h.json
  locksim run --pattern basic --scenario gc-pause --show-scenario > mine.txt
  locksim run --pattern basic --scenario mine.txt --seed 7`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runRun(cmd, f) },
	}
	f.bind(cmd.Flags())
	return cmd
}

// bind defines the flags of the command into f.
func (f *runFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.pattern, "pattern", "", "pattern name (see locksim list)")
	fl.StringVar(&f.scenario, "scenario", "", "built-in scenario name, or a scenario file")
	fl.Uint64Var(&f.seed, "seed", 1, "seed of every random draw in the run")
	fl.BoolVar(&f.asJSON, "json", false, "print the result as JSON")
	fl.BoolVar(&f.show, "show-scenario", false, "print the resolved scenario as a file and exit")
	fl.StringVar(&f.trace, "trace", "", "write the readable trace to this file (- for stdout)")
	fl.StringVar(&f.historyFile, "history", "", "write the history (JSON) to this file")
	fl.StringVar(&f.viz, "viz", "", "write porcupine's HTML visualisation of the history's check to this file")
	fl.StringVar(&f.backend, "backend", string(node.BackendNative), "Redis node store: native (Lua engine for scripts, miniredis for commands it lacks) or mini")
}

func runRun(cmd *cobra.Command, f runFlags) error {
	p, sc, err := resolveRun(f)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	if f.show {
		return scenario.Write(out, sc)
	}
	cfg := sim.Config{Pattern: p, Scenario: sc, Seed: f.seed, Backend: node.Backend(f.backend)}
	trace, err := openTrace(&cfg, f.trace, out)
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := untilInterrupted(cmd.Context(), "no output written", func() (*sim.Result, error) { return sim.Run(cfg) })
	if err != nil {
		trace.Abort()
		return err
	}
	if err := trace.Commit(); err != nil {
		return runtimef("--trace: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "locksim: simulated %v in %v\n", sc.Duration, time.Since(start).Round(time.Millisecond))
	if err := writeRunFiles(cmd, res, f); err != nil {
		return err
	}
	if err := printResult(out, res, f.asJSON, f); err != nil {
		return runtimef("write stdout: %w", err)
	}
	if !f.asJSON {
		if len(res.Violated) > 0 {
			fmt.Fprintf(out, "replay    %s\n", replayCmd(f))
		}
		fmt.Fprintf(out, "explore   %s\n", exploreCmd(f))
	}
	return verdict(res, f)
}

// writeRunFiles writes --history and --viz, each atomically.
func writeRunFiles(cmd *cobra.Command, res *sim.Result, f runFlags) error {
	if f.historyFile != "" {
		if err := safefile.Write(f.historyFile, res.History.Encode); err != nil {
			return runtimef("--history: %w", err)
		}
	}
	if f.viz == "" {
		return nil
	}
	var v string
	err := safefile.WritePath(f.viz, func(tmp string) error {
		var err error
		v, err = writeViz(tmp, res.History)
		return err
	})
	if err != nil {
		return runtimef("--viz: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "locksim: checker %s; visualisation in %s\n", v, f.viz)
	return nil
}

// resolveRun checks the flags and the paths and finds the pattern and the
// scenario, before anything runs.
func resolveRun(f runFlags) (pattern.Pattern, scenario.Scenario, error) {
	if f.pattern == "" {
		return pattern.Pattern{}, scenario.Scenario{}, usagef("--pattern is required (see locksim list)")
	}
	if f.scenario == "" {
		return pattern.Pattern{}, scenario.Scenario{}, usagef("--scenario is required: a built-in name (see locksim list) or a file")
	}
	if f.backend != string(node.BackendNative) && f.backend != string(node.BackendMini) {
		return pattern.Pattern{}, scenario.Scenario{}, usagef("--backend %q: want native or mini", f.backend)
	}
	if err := oneCell(f); err != nil {
		return pattern.Pattern{}, scenario.Scenario{}, err
	}
	if err := showAlone(f); err != nil {
		return pattern.Pattern{}, scenario.Scenario{}, err
	}
	if f.trace == "-" && f.asJSON {
		return pattern.Pattern{}, scenario.Scenario{}, usagef("--trace - and --json both write to stdout: give --trace a file")
	}
	p, err := pattern.Lookup(f.pattern)
	if err != nil {
		return p, scenario.Scenario{}, usagef("--pattern: %v", err)
	}
	isFile, err := scenarioFile("--scenario", f.scenario)
	if err != nil {
		return p, scenario.Scenario{}, err
	}
	if err := checkRunPaths(f, isFile); err != nil {
		return p, scenario.Scenario{}, err
	}
	sc, err := loadScenario(f.scenario, isFile, p.Nodes)
	if err == nil && !f.show {
		err = refusedSettings("--scenario "+f.scenario, p, sc)
	}
	return p, sc, err
}

// oneCell refuses --pattern or --scenario all, or a list: run judges one
// pattern under one scenario with one seed; explore runs many, and the
// error names the command.
func oneCell(f runFlags) error {
	many := func(arg string) bool { return arg == "all" || strings.Contains(arg, ",") }
	if !many(f.pattern) && !many(f.scenario) {
		return nil
	}
	if _, err := os.Stat(f.scenario); err == nil && !many(f.pattern) {
		return nil // a scenario file whose name has a comma
	}
	return usagef("run simulates one pattern under one scenario with one seed; for --pattern %s --scenario %s use explore: %s",
		f.pattern, f.scenario, explore.ExploreCommand(f.pattern, f.scenario, explore.Seeds{Start: 1, Count: defaultExploreSeeds}))
}

// showAlone refuses, beside --show-scenario, the flags it would ignore: it
// prints the scenario as a file, and runs nothing.
func showAlone(f runFlags) error {
	if !f.show {
		return nil
	}
	var other []string
	for _, o := range []struct {
		flag string
		set  bool
	}{{"--json", f.asJSON}, {"--trace", f.trace != ""}, {"--history", f.historyFile != ""}, {"--viz", f.viz != ""}} {
		if o.set {
			other = append(other, o.flag)
		}
	}
	if len(other) > 0 {
		return usagef("--show-scenario prints the scenario as a file (the text a --scenario file takes) and runs nothing: drop %s", strings.Join(other, ", "))
	}
	return nil
}

// checkRunPaths refuses an output that is the scenario file or another
// output, or cannot be written.
func checkRunPaths(f runFlags, isFile bool) error {
	var paths safefile.Paths
	if isFile {
		paths.Input("--scenario", f.scenario)
	}
	if !f.show {
		if f.trace != "-" {
			paths.Output("--trace", f.trace)
		}
		paths.Output("--history", f.historyFile)
		paths.Output("--viz", f.viz)
	}
	return checkPaths(&paths)
}

// loadScenario reads a built-in or one of the gate's own scenarios by
// name, or else a file.
func loadScenario(name string, isFile bool, nodes int) (scenario.Scenario, error) {
	if !isFile {
		own, err := explore.Named(name)
		if err != nil {
			return scenario.Scenario{}, usagef("--scenario: %v", err)
		}
		sc, err := own.Resolve(nodes)
		if err != nil {
			return sc, usagef("--scenario %s: %w", name, err)
		}
		return sc, nil
	}
	file, err := os.Open(name)
	if err != nil {
		return scenario.Scenario{}, usagef("--scenario: %v", err)
	}
	defer file.Close()
	sc, err := scenario.Parse(file)
	if err == nil {
		sc, err = sc.Resolve(nodes)
	}
	if err != nil {
		return sc, usagef("--scenario %s: %w", name, err)
	}
	if sc.Name == "" {
		sc.Name = name
	}
	return sc, nil
}

// output is a file being written, or nothing (stdout, no flag).
type output struct{ f *safefile.File }

// Commit renames the file into place.
func (o output) Commit() error {
	if o.f == nil {
		return nil
	}
	return o.f.Commit()
}

// Abort drops the file: the old one, if any, stays.
func (o output) Abort() {
	if o.f != nil {
		o.f.Abort()
	}
}

func openTrace(cfg *sim.Config, path string, stdout io.Writer) (output, error) {
	switch path {
	case "":
		return output{}, nil
	case "-":
		cfg.Trace = stdout
		return output{}, nil
	}
	f, err := safefile.Create(path)
	if err != nil {
		return output{}, runtimef("--trace: %w", err)
	}
	cfg.Trace = f
	return output{f}, nil
}

func printResult(w io.Writer, res *sim.Result, asJSON bool, f runFlags) error {
	if asJSON {
		return writeJSON(w, newRunJSON(res, f))
	}
	s, l := res.Safety, res.Liveness
	fmt.Fprintf(w, "pattern   %s (claims: %s)\n", res.Pattern, orNone(res.Claims))
	fmt.Fprintf(w, "scenario  %s (nodes: %d)\n", res.Scenario, res.Nodes)
	fmt.Fprintf(w, "seed      %d\n", res.Seed)
	fmt.Fprintf(w, "verdict   %s\n", verdictWord(res))
	fmt.Fprintf(w, "safety    overlaps %d, lost updates %d, fence violations %d, stale writes rejected %d, writes abandoned %d\n",
		s.Overlaps, s.LostUpdates, s.FenceViolations, s.StaleRejected, s.Abandoned)
	fmt.Fprintf(w, "liveness  acquisitions %d (failed %d), wait p50 %v p99 %v max %v, stuck: %s, stalls %d (longest %v)\n",
		l.Acquisitions, l.Failures, l.WaitP50.Round(time.Microsecond), l.WaitP99.Round(time.Microsecond),
		l.WaitMax.Round(time.Microsecond), orNone(l.Stuck), l.Stalls, l.LongestStall.Round(time.Microsecond))
	fmt.Fprintf(w, "rates     %.4g violations of %s's claims per simulated hour, %.4g per million acquisitions\n",
		res.RatePerSimHour(), res.Pattern, res.RatePerMillionAcquisitions())
	for _, u := range res.Unclaimed() {
		fmt.Fprintf(w, "unclaimed %d %s, %.4g per simulated hour (%s is not a claim of %s: not violations, in no rate)\n",
			u.Count, u.What, sim.PerSimHour(u.Count, res.Stats.SimTime), u.Claim, res.Pattern)
	}
	if fs := res.FaultsSummary(); fs != "" {
		fmt.Fprintf(w, "faults    %s\n", strings.TrimPrefix(fs, "faults "))
	}
	for _, v := range res.Violations {
		fmt.Fprintf(w, "  t=%.6fs %s %s%s: %s\n", float64(v.At)/1e9, v.Kind, strings.Join(v.Clients, ","), unclaimedNote(res, v.Kind), v.Detail)
	}
	if n := res.Stats.Violations - len(res.Violations); n > 0 {
		fmt.Fprintf(w, "  … and %d more\n", n)
	}
	return nil
}

// unclaimedNote labels a finding of a claim the pattern does not make:
// " (not a claim of fenced)"; "" for a claim it makes.
func unclaimedNote(res *sim.Result, kind string) string {
	for _, u := range res.ClaimFindings() {
		if u.Kind == kind && !u.Claimed {
			return fmt.Sprintf(" (%s: not a claim of %s)", u.Claim, res.Pattern)
		}
	}
	return ""
}

// verdictWord is the run's verdict; an ok one says it judged one seed
// (the explore line that follows measures a rate).
func verdictWord(res *sim.Result) string {
	if len(res.Violated) > 0 {
		return "VIOLATED: " + strings.Join(res.Violated, ", ")
	}
	ok := "ok: no claim violated in this one seed"
	if n := len(res.Unfired()); n > 0 {
		// A run whose faults did not all fire did not test the scenario.
		ok += fmt.Sprintf(", but %d of %d faults did not fire (see faults)", n, len(res.Faults))
	}
	return ok + "; one seed is no rate: see explore below"
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// verdict turns a violated claim into exit status 1, with a replay command.
func verdict(res *sim.Result, f runFlags) error {
	if len(res.Violated) == 0 {
		return nil
	}
	return violationError{fmt.Sprintf("%s violated %s with seed %d; replay: %s",
		res.Pattern, strings.Join(res.Violated, ", "), res.Seed, replayCmd(f))}
}

// replayCmd reruns the run, writing its trace; quoted for a shell as
// explore's replay commands are.
func replayCmd(f runFlags) string {
	return explore.ReplayCommand(f.pattern, f.scenario, f.seed) + " --trace trace.txt"
}

// exploreCmd measures, over explore's default seeds, the rate that one
// run cannot give.
func exploreCmd(f runFlags) string {
	return explore.ExploreCommand(f.pattern, f.scenario, explore.Seeds{Start: 1, Count: defaultExploreSeeds})
}

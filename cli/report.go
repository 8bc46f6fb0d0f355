package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/internal/buildinfo"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

type reportFlags struct {
	out, bench, real     string
	seeds, baselineSeeds int
	sweepSeeds           int
	productionSeeds      int
	parallel             int
	patterns, scenarios  string
	commit, force        bool
}

// reportHelp is the help of locksim report.
const reportHelp = `report simulates every registered pattern, correct ones and broken
variants, under every built-in scenario with seeds 1..N (the baseline,
steady, with --baseline-seeds), and writes into --out:

  README.md, report.html   the front page: which pattern to use per
                           situation and why, every sentence from a rule
                           citing the numbers, the source article's table
                           checked, and links to the topic pages
  NAME.md, NAME.html       the topic pages: claims (safety, promptness and
                           liveness apart, the safety curves, lost updates,
                           the broken variants), real, production,
                           counterexamples, benchmark, method (with the
                           glossary)
  production faults        every pattern under the gate's scenarios of the
                           production faults (fault schedules, split brain,
                           blackhole, starve, fsync window, replica chains
                           and lags, WAIT, N-th-attempt and call-point
                           triggers, manual extension, misuse) with
                           --production-seeds seeds (as --seeds unless set;
                           half as many for runs longer than a simulated
                           second), and the
                           violations per simulated hour and per million
                           acquisitions
  plots/*.png, *.svg       violation-rate grids, fencing, baseline liveness,
                           safety against cost, and the safety curves
                           (locksim sweep, --sweep-seeds seeds per point)
  viz/*.html               porcupine's visualisation of the first violating
                           seed of every cell with a violation, sharing
                           viz/porcupine.js and viz/porcupine.css
  manifest.txt             the files above that this report wrote

The benchmark comes from --bench (results.json, else results.csv, as
'locksim bench' writes them); a directory without them, or a missing
default reports/bench, makes the report say so, and a --bench given
that does not exist or is not a directory is refused (exit 2). Real mode's
agreement table comes from --real DIR (DIR/agreement.json, as 'locksim
real --table DIR/README.md' writes it, and a link to DIR/NOTES.md): per
pattern × scenario the simulator's and the real rate with their intervals
and whether they agree, the libraries' rows and the scenarios real mode
could not run; a missing agreement.json is said in the report, a
malformed one refused (exit 2). The report is
deterministic: the same code, flags and benchmark files give the same bytes
(it shows the git commit when there is one, and no other clock reading than
the benchmark's own date). Progress goes to stderr: a bar on a terminal,
plain lines otherwise.

--out writes only the files the report owns: the report is written aside,
then put in place; the files the earlier report listed in manifest.txt
and this one does not write are removed, nothing else is. Where the
directory holds nothing but the earlier report (or is new), the new one
replaces it in one step (a directory staged beside it, swapped in): a
reader, or a run killed at any point, finds one report or the other.
Beside files that are not the report's (the default reports/, whose bench/
and real/ are the benchmark's and real mode's), each file is moved in by
its own rename after a journal (.locksim-report-install) names them: a
run killed among those renames leaves files of two runs and the journal,
and the next report into the directory first completes that install
(saying so), so the directory ends up holding one report. A
directory that is not empty and holds no earlier report (no manifest.txt)
is refused unless --force, which writes beside the other files, never
over them: a README.md or report.html that no report wrote is refused
with --force too (exit 2). --out and --bench must differ; both are
checked before anything runs.

One report at a time per directory: a report holds a lock on --out
(.locksim-report.lock inside it, released when the report ends, even
killed) from its checks to its install. A second report into a directory
that one is writing is refused at once, exit 3, naming the other's pid; it
writes nothing, and the first is unaffected.`

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report [--out DIR] [--seeds N] [--bench DIR]",
		Short: "Measure every pattern under every built-in scenario and write the comparison: Markdown, HTML, plots, counterexamples",
		Long:  reportHelp,
		Example: `  locksim report
  locksim report --seeds 5 --baseline-seeds 1 --out /tmp/report
  locksim report --seeds 100 --baseline-seeds 5 --bench reports/bench --real reports/real
  locksim report --patterns basic,fenced,redlock --scenarios gc-pause,node-clock-jump --out /tmp/r`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runReport(cmd, f) },
	}
	f.bind(cmd.Flags())
	return cmd
}

// bind defines the flags of the command into f.
func (f *reportFlags) bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.out, "out", "reports", "directory to write the report into")
	fl.IntVar(&f.seeds, "seeds", report.DefaultSeeds, "seeds per pattern × fault scenario")
	fl.IntVar(&f.baselineSeeds, "baseline-seeds", report.DefaultBaselineSeeds, "seeds per pattern of the baseline scenario "+report.Baseline+" (30 simulated seconds each)")
	fl.IntVar(&f.sweepSeeds, "sweep-seeds", report.DefaultSweepSeeds, "seeds per point of the safety curves (0: no curves)")
	fl.IntVar(&f.productionSeeds, "production-seeds", -1, "seeds per pattern × production scenario of a simulated second, half as many for longer ones (-1: as --seeds; 0: no production-faults section)")
	fl.StringVar(&f.bench, "bench", "reports/bench", "directory of the latest benchmark results")
	fl.StringVar(&f.real, "real", "", "directory of real mode's agreement table (agreement.json and NOTES.md, as locksim real --table writes it); none if empty")
	fl.IntVar(&f.parallel, "parallel", 0, "simulations run at once (0: 4 per core)")
	fl.StringVar(&f.patterns, "patterns", "all", "comma-separated pattern names (see locksim list), or all")
	fl.StringVar(&f.scenarios, "scenarios", "all", "comma-separated built-in scenario names, or all")
	fl.BoolVar(&f.commit, "commit", true, "show the git commit of the source in the report")
	fl.BoolVar(&f.force, "force", false, "write into a directory that holds other files and no earlier report, beside them, never over them (it lists the files it writes in "+report.FileManifest+")")
}

// checkBenchDir refuses a --bench that is not a directory: a path that
// does not exist when given (a mistyped directory would otherwise give a
// report that says it has no benchmark data), or a file. The default
// may be missing: the report then says so.
func checkBenchDir(dir string, given bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !given:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return usagef("--bench %s: no such directory (give the directory 'locksim bench --out' wrote)", dir)
	case err != nil:
		return usagef("--bench %s: %v", dir, err)
	case !st.IsDir():
		return usagef("--bench %s: not a directory (give the directory that holds %s or %s)", dir, bench.FileJSON, bench.FileRows)
	}
	return nil
}

func runReport(cmd *cobra.Command, f reportFlags) error {
	cfg, err := checkReportFlags(cmd, &f)
	if err != nil {
		return err
	}
	start := time.Now()
	built, err := report.Generate(cmd.Context(), reportJob(cmd, f, cfg))
	if report.IsUsage(err) {
		return usageError{err}
	} else if err != nil {
		return err
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "locksim: %d simulations and the report in %v\n", built.Runs, time.Since(start).Round(time.Second))
	fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(f.out, report.FileMarkdown))
	fmt.Fprintln(cmd.OutOrStdout(), filepath.Join(f.out, report.FileHTML))
	return nil
}

// checkReportFlags refuses a count out of its bounds and a path that
// cannot be used, before any work, and resolves the pattern and scenario
// lists (--production-seeds -1 becomes --seeds).
func checkReportFlags(cmd *cobra.Command, f *reportFlags) (report.Config, error) {
	if err := errors.Join(checkCount("--seeds", f.seeds, maxReportSeeds), checkCount("--baseline-seeds", f.baselineSeeds, maxReportSeeds)); err != nil {
		return report.Config{}, err
	}
	if f.sweepSeeds < 0 || f.sweepSeeds > maxReportSeeds {
		return report.Config{}, usagef("--sweep-seeds %d: want 0 (no curves) to %d", f.sweepSeeds, maxReportSeeds)
	}
	if f.productionSeeds == -1 {
		f.productionSeeds = f.seeds
	}
	if f.productionSeeds < 0 || f.productionSeeds > maxReportSeeds {
		return report.Config{}, usagef("--production-seeds %d: want -1 (as --seeds), 0 (no production-faults section) or up to %d", f.productionSeeds, maxReportSeeds)
	}
	if f.parallel < 0 || f.parallel > maxParallel {
		return report.Config{}, usagef("--parallel %d: want 0 (4 per core) to %d", f.parallel, maxParallel)
	}
	cfg, err := reportConfig(*f)
	if err != nil {
		return cfg, err
	}
	if err := checkBenchDir(f.bench, cmd.Flags().Changed("bench")); err != nil {
		return cfg, err
	}
	var paths safefile.Paths
	paths.Input("--bench", f.bench)
	paths.Input("--real", f.real)
	paths.OutputDir("--out", f.out)
	return cfg, checkPaths(&paths)
}

// reportJob is the report the flags ask for, its progress on stderr: an
// interrupt while it measures returns at once, the directory as it was.
func reportJob(cmd *cobra.Command, f reportFlags, cfg report.Config) report.Job {
	stderr := cmd.ErrOrStderr()
	job := report.Job{
		Phases:  report.Phases{Config: cfg, SweepSeeds: f.sweepSeeds, ProductionSeeds: f.productionSeeds, Phase: phaseProgress(stderr)},
		Out:     f.out,
		Force:   f.force,
		Command: commandLine(f),
		Inputs:  func() (*report.Bench, *report.Agreement, error) { return reportInputs(f) },
		Resumed: func(n int) {
			fmt.Fprintf(stderr, "locksim: completed the install of an interrupted report into %s (%d files) first\n", f.out, n)
		},
		Measure: func(run func() (*report.Measured, error)) (*report.Measured, error) {
			return untilInterrupted(cmd.Context(), "no report written: the directory is as it was", run)
		},
	}
	if f.commit {
		job.Commit = buildinfo.Commit()
	}
	return job
}

// phaseProgress says each phase of the report as it starts, on stderr,
// and gives the grid's and the production faults' progress lines.
func phaseProgress(stderr io.Writer) func(name, what string) func(done, total int) {
	return func(name, what string) func(done, total int) {
		switch name {
		case "grid":
			return progressReporter(stderr, false, "report")
		case "production":
			fmt.Fprintf(stderr, "locksim: %s\n", what)
			return progressReporter(stderr, false, "production")
		}
		fmt.Fprintf(stderr, "locksim: %s\n", what)
		return nil
	}
}

// reportInputs loads what the report shows beside its measurements: the
// benchmark of --bench (nil when it holds none) and real mode's
// agreement table of --real (nil without --real).
func reportInputs(f reportFlags) (*report.Bench, *report.Agreement, error) {
	b, err := report.LoadBench(f.bench)
	if err != nil {
		return nil, nil, usagef("--bench: %v", err)
	}
	agree, err := loadAgreement(f.real, f.out)
	if err != nil {
		return nil, nil, err
	}
	return b, agree, nil
}

// reportConfig resolves the pattern and scenario lists.
func reportConfig(f reportFlags) (report.Config, error) {
	cfg := report.Config{Seeds: f.seeds, BaselineSeeds: f.baselineSeeds, Workers: f.parallel}
	if f.patterns != "all" {
		for _, name := range strings.Split(f.patterns, ",") {
			p, err := pattern.Lookup(strings.TrimSpace(name))
			if err != nil {
				return cfg, usagef("--patterns: %v", err)
			}
			cfg.Patterns = append(cfg.Patterns, p)
		}
	}
	if f.scenarios != "all" {
		for _, name := range strings.Split(f.scenarios, ",") {
			b, err := builtin(strings.TrimSpace(name))
			if err != nil {
				return cfg, usagef("--scenarios: %v", err)
			}
			cfg.Scenarios = append(cfg.Scenarios, b)
		}
	}
	return cfg, nil
}

func builtin(name string) (scenario.Builtin, error) {
	var names []string
	for _, b := range scenario.Builtins() {
		if b.Name == name {
			return b, nil
		}
		names = append(names, b.Name)
	}
	return scenario.Builtin{}, fmt.Errorf("unknown built-in scenario %q (built-in: %s)", name, strings.Join(names, ", "))
}

// commandLine is the command that regenerates the report, flags that change
// its content only.
func commandLine(f reportFlags) string {
	s := fmt.Sprintf("%s report --seeds %d --baseline-seeds %d --sweep-seeds %d --production-seeds %d --bench %s", explore.Command(), f.seeds, f.baselineSeeds, f.sweepSeeds, f.productionSeeds, f.bench)
	if f.real != "" {
		s += " --real " + f.real
	}
	if f.patterns != "all" {
		s += " --patterns " + f.patterns
	}
	if f.scenarios != "all" {
		s += " --scenarios " + f.scenarios
	}
	return s
}

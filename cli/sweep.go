package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/report"
	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

type sweepFlags struct {
	dimension, patterns, base, points, out string
	seeds, parallel                        int
}

func newSweepCmd() *cobra.Command {
	var f sweepFlags
	cmd := &cobra.Command{
		Use:   "sweep --dimension D|all --pattern P[,P...] [--base FILE] [--out DIR]",
		Short: "Safety curves: the violation rate, with intervals, as one fault grows, for your patterns and settings",
		Long: `sweep runs the patterns at every point of a dimension — one fault made
larger step by step — with seeds 1..N each, and prints per pattern and
point the seeds that broke a claim, the rate and its 95% Wilson interval.

Dimensions (--dimension, or all):
` + dimensionHelp() + `
--base is a scenario file (see locksim list) or a built-in scenario name:
its TTL, clients, workload, network and faults are kept, and the swept
fault is added. Without it, the default scenario (TTL 100ms, 2 clients,
1s). --points replaces the dimension's default points.

With --out DIR, each dimension also writes DIR/sweep-D.png, .svg and .md
(the directory is created if missing) and lists them in
DIR/` + sweepManifestName + `: a later sweep replaces the files listed there
and refuses, before it runs, a sweep-D file of the same name that no
sweep wrote; no other file is touched. The same flags give the same
numbers. Exit 0 whatever the curves show; 2 on bad usage (such a file
included); 3 when --out cannot be written.`,
		Example: `  locksim sweep --dimension pause --pattern basic,watchdog,fenced
  locksim sweep --dimension all --pattern redlock --seeds 40 --out curves/
  locksim sweep --dimension work --pattern service --base my-settings.txt --points 0.5,1,2,4`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSweep(cmd, f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.dimension, "dimension", "", "what to sweep: "+strings.Join(dimensionNames(), ", ")+", or all")
	fl.StringVar(&f.patterns, "pattern", "", "comma-separated pattern names (see locksim list)")
	fl.StringVar(&f.base, "base", "", "base scenario: a file or a built-in name (default: the default scenario)")
	fl.StringVar(&f.points, "points", "", "comma-separated points (default: the dimension's own)")
	fl.IntVar(&f.seeds, "seeds", report.DefaultSweepSeeds, "seeds per pattern and point")
	fl.IntVar(&f.parallel, "parallel", 0, "simulations run at once (0: 4 per core)")
	fl.StringVar(&f.out, "out", "", "directory for the plots and tables (none if empty)")
	return cmd
}

func dimensionNames() []string {
	var out []string
	for _, d := range report.Dimensions() {
		out = append(out, d.Name)
	}
	return out
}

func dimensionHelp() string {
	var b strings.Builder
	for _, d := range report.Dimensions() {
		fmt.Fprintf(&b, "  %-12s %s (x: %s)\n", d.Name, d.Summary, d.Axis)
	}
	return b.String()
}

// sweepPlan is what the flags resolve to.
type sweepPlan struct {
	dims     []report.Dimension
	patterns []pattern.Pattern
	base     *scenario.Scenario
	points   []float64
}

func runSweep(cmd *cobra.Command, f sweepFlags) error {
	plan, err := sweepPlanOf(f)
	if err != nil {
		return err
	}
	var paths safefile.Paths
	paths.Input("--base", f.base)
	if f.out != "" {
		paths.OutputDir("--out", f.out)
	}
	if err := checkPaths(&paths); err != nil {
		return err
	}
	var owned []string
	if f.out != "" {
		if owned, err = checkSweepOut(f.out, plan.dims); err != nil {
			return err
		}
	}
	stderr := cmd.ErrOrStderr()
	for _, d := range plan.dims {
		start := time.Now()
		s, err := report.RunSweep(cmd.Context(), report.SweepConfig{Dimension: d, Points: plan.points, Patterns: plan.patterns, Base: plan.base, Seeds: f.seeds, Workers: f.parallel})
		if err != nil {
			return usagef("--dimension %s: %v", d.Name, err)
		}
		fmt.Fprintf(stderr, "locksim: sweep %s: %d simulations in %v\n", d.Name, s.Runs, time.Since(start).Round(100*time.Millisecond))
		if f.out != "" {
			owned = union(owned, sweepFiles(d))
			if err := writeSweepManifest(f.out, owned); err != nil {
				return runtimef("--out: %v", err)
			}
		}
		if err := printSweep(cmd.OutOrStdout(), f.out, s); err != nil {
			return err
		}
	}
	return nil
}

// printSweep prints the sweep's table and, with an output directory,
// writes its plot and Markdown there.
func printSweep(stdout io.Writer, out string, s *report.Sweep) error {
	plot := ""
	if out != "" {
		if err := os.MkdirAll(out, 0o755); err != nil {
			return runtimef("--out: %v", err)
		}
		if err := report.WriteSweepPlot(out, s); err != nil {
			return runtimef("--out: %v", err)
		}
		plot = report.SweepPlot(s) + ".png"
		err := safefile.Write(filepath.Join(out, report.SweepPlot(s)+".md"), func(w io.Writer) error {
			return report.WriteMarkdown(w, report.SweepDocument(s, plot))
		})
		if err != nil {
			return runtimef("--out: %v", err)
		}
	}
	return report.WriteMarkdown(stdout, report.SweepDocument(s, plot))
}

func sweepPlanOf(f sweepFlags) (sweepPlan, error) {
	var p sweepPlan
	switch {
	case f.dimension == "":
		return p, usagef("--dimension: required (%s, or all)", strings.Join(dimensionNames(), ", "))
	case f.patterns == "":
		return p, usagef("--pattern: required (see locksim list)")
	case f.parallel < 0 || f.parallel > maxParallel:
		return p, usagef("--parallel %d: want 0 (4 per core) to %d", f.parallel, maxParallel)
	}
	if err := checkCount("--seeds", f.seeds, maxReportSeeds); err != nil {
		return p, err // a sweep keeps every run's result until its points are tallied, as report does
	}
	if f.dimension == "all" {
		p.dims = report.Dimensions()
	} else {
		d, err := report.LookupDimension(f.dimension)
		if err != nil {
			return p, usagef("--dimension: %v", err)
		}
		p.dims = []report.Dimension{d}
	}
	for _, name := range strings.Split(f.patterns, ",") {
		pat, err := pattern.Lookup(strings.TrimSpace(name))
		if err != nil {
			return p, usagef("--pattern: %v", err)
		}
		p.patterns = append(p.patterns, pat)
	}
	if err := explore.PatternsOnce(p.patterns); err != nil {
		return p, usagef("--pattern: %v", err)
	}
	var err error
	if p.points, err = parsePoints(f.points); err != nil {
		return p, err
	}
	if f.base != "" {
		isFile, err := scenarioFile("--base", f.base)
		if err != nil {
			return p, err
		}
		sc, err := loadScenario(f.base, isFile, 0)
		if err != nil {
			return p, err
		}
		if err := refusedBase(f.base, p.patterns, sc); err != nil {
			return p, err
		}
		p.base = &sc
	}
	return p, nil
}

// parsePoints reads --points: nil when empty.
func parsePoints(s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v < 0 {
			return nil, usagef("--points: %q is not a non-negative number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// refusedBase refuses a --base whose lock settings one of the patterns
// does not build with, resolved for that pattern's nodes as the sweep
// resolves it.
func refusedBase(arg string, patterns []pattern.Pattern, base scenario.Scenario) error {
	for _, p := range patterns {
		sc, err := base.Resolve(p.Nodes)
		if err != nil {
			return usagef("--base %s: %v", arg, err)
		}
		if err := refusedSettings("--base "+arg, p, sc); err != nil {
			return err
		}
	}
	return nil
}

// sweepManifestName is the file, in a sweep's --out, that lists the files
// sweeps wrote there: the next sweep replaces those and no other.
const sweepManifestName = "sweep-manifest.txt"

const sweepManifestHeader = "# locksim sweep: the files it wrote here. The next locksim sweep --out into this directory replaces them and no other file."

// sweepFiles are the files a sweep of d writes into its --out.
func sweepFiles(d report.Dimension) []string {
	name := report.SweepPlot(&report.Sweep{Dimension: d})
	return []string{name + ".md", name + ".png", name + ".svg"}
}

// checkSweepOut refuses, before any run, a file that the sweep of dims
// would write over and that no sweep wrote (not in the manifest), and
// returns the files the manifest lists.
func checkSweepOut(dir string, dims []report.Dimension) ([]string, error) {
	owned, err := readSweepManifest(filepath.Join(dir, sweepManifestName))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, usagef("--out %s: %v", dir, err)
	}
	for _, d := range dims {
		for _, f := range sweepFiles(d) {
			if _, err := os.Lstat(filepath.Join(dir, f)); err == nil && !slices.Contains(owned, f) {
				return nil, usagef("--out %s: %s exists and no sweep wrote it (not in %s): move it, or give another --out", dir, f, sweepManifestName)
			}
		}
	}
	return owned, nil
}

func readSweepManifest(path string) ([]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != sweepManifestHeader {
		return nil, fmt.Errorf("%s is not a locksim sweep manifest (its first line is not %q)", path, sweepManifestHeader)
	}
	var owned []string
	for _, l := range lines[1:] {
		if l = strings.TrimSpace(l); l != "" {
			owned = append(owned, l)
		}
	}
	return owned, nil
}

func writeSweepManifest(dir string, files []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return safefile.Write(filepath.Join(dir, sweepManifestName), func(w io.Writer) error {
		_, err := fmt.Fprintf(w, "%s\n%s\n", sweepManifestHeader, strings.Join(files, "\n"))
		return err
	})
}

// union is the sorted files of a and b, each once.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// Command fencedwatch-sim drives the fencedwatch lock through locksim's
// public packages, as the locksim command drives its own patterns:
//
//	fencedwatch-sim run [-scenario NAME|FILE] [-seed N] [-trace]   one simulation, its verdict
//	fencedwatch-sim explore [-seeds N]                             violation rates, lock and broken twin, every scenario
//	fencedwatch-sim check [-seeds N] [-out DIR]                    the gate: exit 1 on any deviation from the expectations
//
// check writes each deviation's counterexample (scenario, porcupine page,
// trace) into -out, by default the system's temporary directory.
//
// Run it from examples/: the scenario and expectations files are
// ../fencedwatch/testdata's, by default.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/locksim/locksim/examples/fencedwatch"
	"github.com/locksim/locksim/locksimtest"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// Exit codes, as locksim's.
const (
	exitOK        = 0
	exitViolation = 1
	exitUsage     = 2
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, out, errw io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(errw, "usage: fencedwatch-sim run|explore|check [flags]")
		return exitUsage
	}
	fl := flag.NewFlagSet(args[0], flag.ContinueOnError)
	fl.SetOutput(errw)
	scen := fl.String("scenario", "gc-pause", "run: a built-in scenario's name or a scenario file")
	seed := fl.Uint64("seed", 1, "run: the seed")
	trace := fl.Bool("trace", false, "run: print the trace")
	seeds := fl.Int("seeds", 5, "explore, check: seeds per scenario")
	outDir := fl.String("out", os.TempDir(), "check: where counterexamples go")
	files := fl.String("files", "fencedwatch/testdata", "explore, check: the directory of long-pause.txt and expect.txt")
	if err := fl.Parse(args[1:]); err != nil {
		return exitUsage
	}
	var err error
	code := exitOK
	switch args[0] {
	case "run":
		code, err = runOne(out, *scen, *seed, *trace)
	case "explore":
		err = explore(out, *seeds, *files)
	case "check":
		code, err = check(out, *seeds, *files, *outDir)
	default:
		err = fmt.Errorf("unknown command %q (want run, explore or check)", args[0])
	}
	if err != nil {
		fmt.Fprintln(errw, "fencedwatch-sim:", err)
		return exitUsage
	}
	return code
}

// runOne simulates the lock once and prints the verdict (sim.Run).
func runOne(out io.Writer, name string, seed uint64, trace bool) (int, error) {
	sc, err := loadScenario(name)
	if err != nil {
		return exitUsage, err
	}
	cfg := sim.Config{Pattern: fencedwatch.Pattern, Scenario: sc, Seed: seed}
	if trace {
		cfg.Trace = out
	}
	res, err := sim.Run(cfg)
	if err != nil {
		return exitUsage, err
	}
	fmt.Fprintln(out, res.Summary())
	if len(res.Violated) > 0 {
		return exitViolation, nil
	}
	return exitOK, nil
}

// loadScenario reads a built-in by name, or a file.
func loadScenario(name string) (scenario.Scenario, error) {
	if sc, err := scenario.Lookup(name, fencedwatch.Pattern.Nodes); err == nil {
		return sc, nil
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return scenario.Scenario{}, fmt.Errorf("scenario %q: neither a built-in nor a readable file: %w", name, err)
	}
	sc, err := scenario.ParseString(string(data))
	if err != nil {
		return sc, fmt.Errorf("scenario %s: %w", name, err)
	}
	return sc.Resolve(fencedwatch.Pattern.Nodes)
}

// explore runs the lock and its broken twin under every built-in scenario
// and ours for seeds 1..n and prints how many runs broke each claim.
func explore(out io.Writer, n int, dir string) error {
	scs := scenario.Builtins()
	own, err := loadScenario(dir + "/long-pause.txt")
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SCENARIO\tPATTERN\tRUNS\tSAFE-STORE BROKEN\tFENCING BROKEN\tACQUISITIONS/RUN")
	for i := 0; i <= len(scs); i++ {
		sc, name := own, "long-pause"
		if i < len(scs) {
			name = scs[i].Name
			if sc, err = scs[i].Scenario(fencedwatch.Pattern.Nodes); err != nil {
				return err
			}
		}
		for _, p := range []pattern.Pattern{fencedwatch.Pattern, fencedwatch.Broken} {
			row, err := tally(p, sc, n)
			if err != nil {
				return err
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%.1f\n", name, p.Name, n, row.store, row.fencing, float64(row.acq)/float64(n))
		}
	}
	return tw.Flush()
}

type counts struct{ store, fencing, acq int }

func tally(p pattern.Pattern, sc scenario.Scenario, n int) (counts, error) {
	var c counts
	for seed := uint64(1); seed <= uint64(n); seed++ {
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: seed})
		if err != nil {
			return c, err
		}
		for _, v := range res.Violated {
			switch v {
			case "safe-store":
				c.store++
			case "fencing":
				c.fencing++
			}
		}
		c.acq += res.Liveness.Acquisitions
	}
	return c, nil
}

// check is the gate (locksimtest.Check): the lock, our scenario, our
// expectations; every deviation printed with its replay.
func check(out io.Writer, n int, dir, outDir string) (int, error) {
	rep, err := locksimtest.Check(fencedwatch.Pattern, locksimtest.Options{Seeds: n,
		Scenarios: []string{dir + "/long-pause.txt"}, ExpectFile: dir + "/expect.txt", Dir: outDir})
	if err != nil {
		return exitUsage, err
	}
	for _, f := range rep.Findings {
		fmt.Fprintln(out, f.String())
	}
	fmt.Fprintln(out, rep.Summary())
	if !rep.OK() {
		return exitViolation, nil
	}
	return exitOK, nil
}

// Command simbench measures the simulator's seeds per minute per pattern
// and writes sim.md and sim.csv (see package simbench).
//
//	go run ./bench/cmd/simbench --out reports/bench [--seeds 20] [--reps 6]
//	    [--pattern all|NAME,...] [--scenario steady] [--goal 1000] [--procs 1]
//
// Exit status: 0 when it wrote its results (whatever the goal's status),
// 1 when a run failed, 2 on bad usage.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/locksim/locksim/bench/simbench"
	"github.com/locksim/locksim/pattern"
)

var errUsage = errors.New("usage")

func main() {
	err := run(os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "simbench:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("simbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "directory to write sim.md and sim.csv to (default: the table to stdout only)")
	seeds := fs.Int("seeds", 20, "seeds per pattern per repetition")
	reps := fs.Int("reps", 6, "repetitions (6 or more for 95% intervals)")
	patterns := fs.String("pattern", "all", "patterns: all (the correct ones) or comma-separated names")
	scen := fs.String("scenario", "steady", "built-in scenario")
	goal := fs.Float64("goal", 1000, "seeds per CPU-minute each pattern should reach")
	procs := fs.Int("procs", 1, "GOMAXPROCS (1: one core)")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	ps, err := selectPatterns(*patterns)
	if err == nil && (*seeds <= 0 || *reps <= 0 || *procs <= 0) {
		err = fmt.Errorf("--seeds (%d), --reps (%d) and --procs (%d) must be positive", *seeds, *reps, *procs)
	}
	if err != nil {
		fmt.Fprintln(stderr, "simbench:", err)
		return errUsage
	}
	runtime.GOMAXPROCS(*procs)
	res, err := simbench.Run(simbench.Config{Patterns: ps, Scenario: *scen, Seeds: *seeds, Reps: *reps, Goal: *goal,
		Progress: func(rep int, p string) { fmt.Fprintf(stderr, "simbench: repetition %d/%d: %s\n", rep+1, *reps, p) }})
	if err != nil {
		return err
	}
	if err := simbench.WriteMarkdown(stdout, res); err != nil || *out == "" {
		return err
	}
	return write(*out, res)
}

// selectPatterns resolves --pattern.
func selectPatterns(spec string) ([]pattern.Pattern, error) {
	if spec == "all" {
		var out []pattern.Pattern
		for _, p := range pattern.All() {
			if !p.Broken {
				out = append(out, p)
			}
		}
		return out, nil
	}
	var out []pattern.Pattern
	for _, name := range strings.Split(spec, ",") {
		p, err := pattern.Lookup(strings.TrimSpace(name))
		if err != nil {
			return nil, fmt.Errorf("--pattern: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// write puts sim.md and sim.csv into dir (created if missing).
func write(dir string, res *simbench.Result) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	for name, w := range map[string]func(io.Writer, *simbench.Result) error{
		"sim.md": simbench.WriteMarkdown, "sim.csv": simbench.WriteCSV} {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("--out: %w", err)
		}
		err = w(f, res)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fmt.Errorf("write %s: %w", name, err)
		}
	}
	return nil
}

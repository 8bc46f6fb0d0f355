package explore

import (
	"errors"
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/safefile"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
)

// Bounds of a plan's counts, named in their errors.
const (
	MaxSeeds    = 1_000_000_000 // seeds per cell
	MaxParallel = 4096          // runs at once
)

// Plan is an exploration as the explore command's flags give it. Build
// checks it whole, before anything runs, and makes its cells.
type Plan struct {
	// Pattern is --pattern: a name, comma-separated names, or all.
	Pattern string
	// Scenario is --scenario: built-in names and scenario files,
	// comma-separated, or all.
	Scenario string
	// Seeds are --seed-start and --seeds: every cell's seeds.
	Seeds Seeds
	// Parallel is --parallel: runs at once.
	Parallel int
	// Shard is --shard: "i/n", or "" for every seed.
	Shard string
	// Out is --out: the file the result goes to, or "" for stdout. Build
	// checks that it can be written and is no scenario file.
	Out string
}

// FlagError is a plan's refusal of a flag's value: bad input.
type FlagError struct {
	Flag string // the flag at fault, e.g. "--seeds"
	Err  error  // what is wrong, naming the flag
}

func (e *FlagError) Error() string { return e.Err.Error() }
func (e *FlagError) Unwrap() error { return e.Err }

func flagErrorf(flag, format string, a ...any) error {
	return &FlagError{Flag: flag, Err: fmt.Errorf(format, a...)}
}

// Build checks the plan and returns its cells, patterns outermost, and
// the options that run them (Shard and Parallel; the caller adds the
// rest). It runs nothing and writes nothing. It checks, in this order:
// that --pattern and --scenario are given; the counts; the seeds and the
// shard; the patterns, each named once; the paths (every scenario file
// exists, --out can be written and is no scenario file); the scenarios,
// each named once; and, per pattern and scenario, that the pattern's
// constructor takes the scenario's lock settings (realmode.CheckBuild).
// Every error it returns is a *FlagError naming the flag at fault, or,
// when --seeds and --parallel are both out of bounds, errors.Join of
// both.
func (p Plan) Build() ([]Cell, Options, error) {
	opt, err := p.options()
	if err != nil {
		return nil, Options{}, err
	}
	patterns, err := ResolvePatterns(p.Pattern)
	if err == nil {
		err = PatternsOnce(patterns)
	}
	if err != nil {
		return nil, Options{}, flagErrorf("--pattern", "--pattern: %v", err)
	}
	if err := p.checkPaths(); err != nil {
		return nil, Options{}, err
	}
	scenarios, err := ResolveScenarios(p.Scenario)
	if err == nil {
		err = scenariosOnce(scenarios)
	}
	if err != nil {
		return nil, Options{}, flagErrorf("--scenario", "--scenario: %v", err)
	}
	cells, err := Grid(patterns, scenarios, p.Seeds)
	if err != nil {
		return nil, Options{}, flagErrorf("--scenario", "--scenario: %v", err)
	}
	if err := refusedCells(cells); err != nil {
		return nil, Options{}, err
	}
	return cells, opt, nil
}

// options checks the flags that need no file and no catalog: the
// required ones, the counts, the seeds and the shard.
func (p Plan) options() (Options, error) {
	switch {
	case p.Pattern == "":
		return Options{}, flagErrorf("--pattern", "--pattern is required (a name, comma-separated names, or all)")
	case p.Scenario == "":
		return Options{}, flagErrorf("--scenario", "--scenario is required (a built-in name, a file, or all)")
	}
	if err := errors.Join(CheckCount("--seeds", p.Seeds.Count, MaxSeeds), CheckCount("--parallel", p.Parallel, MaxParallel)); err != nil {
		return Options{}, err
	}
	if err := p.Seeds.Validate(); err != nil {
		// The count is at least 1 (above): the range overflows from its start.
		return Options{}, flagErrorf("--seed-start", "--%v", err)
	}
	opt := Options{Parallel: p.Parallel}
	if p.Shard != "" {
		sh, err := ParseShard(p.Shard)
		if err != nil {
			return Options{}, flagErrorf("--shard", "--shard: %v", err)
		}
		opt.Shard = sh
	}
	return opt, nil
}

// CheckCount refuses a count flag's value outside [1, max], naming the
// flag and the limit.
func CheckCount(flag string, n, max int) error {
	switch {
	case n < 1:
		return flagErrorf(flag, "%s %d: want at least 1", flag, n)
	case n > max:
		return flagErrorf(flag, "%s %d: want at most %d", flag, n, max)
	}
	return nil
}

// checkPaths refuses a missing scenario file, and an --out that is a
// scenario file or cannot be written.
func (p Plan) checkPaths() error {
	var paths safefile.Paths
	if p.Scenario != "all" {
		for _, arg := range strings.Split(p.Scenario, ",") {
			arg = strings.TrimSpace(arg)
			isFile, err := ScenarioFile(arg)
			if err != nil {
				return flagErrorf("--scenario", "--scenario %s: %w", arg, err)
			}
			if isFile {
				paths.Input("--scenario", arg)
			}
		}
	}
	paths.Output("--out", p.Out)
	if err := paths.Check(); err != nil {
		return &FlagError{Flag: "--out", Err: err}
	}
	return nil
}

// PatternsOnce refuses a pattern listed twice: its cells would run, and
// be reported, twice.
func PatternsOnce(patterns []pattern.Pattern) error {
	seen := map[string]bool{}
	for _, p := range patterns {
		if seen[p.Name] {
			return fmt.Errorf("%s given twice", p.Name)
		}
		seen[p.Name] = true
	}
	return nil
}

// scenariosOnce refuses a scenario listed twice, and two scenarios of one
// name (a file's scenario line naming a built-in, or two files): results,
// and merge, tell cells apart by the scenario's name.
func scenariosOnce(scenarios []Scenario) error {
	by := map[string]string{}
	for _, sc := range scenarios {
		prev, dup := by[sc.Name]
		switch {
		case dup && prev == sc.Arg:
			return fmt.Errorf("%s given twice", sc.Arg)
		case dup:
			return fmt.Errorf("%s and %s are both named %s (rename one in its scenario line)", prev, sc.Arg, sc.Name)
		}
		by[sc.Name] = sc.Arg
	}
	return nil
}

// refusedCells builds each cell's lock once per pattern and scenario, as
// a run builds it, and refuses the settings its constructor refuses,
// naming the --scenario value the cell came from.
func refusedCells(cells []Cell) error {
	seen := map[[2]string]bool{}
	for _, c := range cells {
		key := [2]string{c.Pattern.Name, c.Scenario.Arg}
		if seen[key] {
			continue
		}
		seen[key] = true
		if err := realmode.CheckBuild(c.Pattern, c.resolved); err != nil {
			return flagErrorf("--scenario", "--scenario %s: %w", c.Scenario.Arg, err)
		}
	}
	return nil
}

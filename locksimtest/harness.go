package locksimtest

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// The test flags: they override Options for one go test run.
var (
	flagSeeds    = flag.Int("locksim.seeds", 0, "seeds per scenario (overrides Options.Seeds)")
	flagSeed     = flag.Uint64("locksim.seed", 0, "run only this seed (a replay)")
	flagScenario = flag.String("locksim.scenario", "", "run only the scenario of this name (a replay)")
)

// Defaults of Options.
const (
	DefaultSeeds      = 10
	DefaultDir        = "testdata/locksim"
	DefaultStallAfter = 10 * time.Second
)

// Options configure Check and Run. The zero value runs every built-in
// scenario for DefaultSeeds seeds and expects every claim to hold.
type Options struct {
	// Seeds is the number of seeds (1..Seeds) per scenario whose lines
	// give no seeds=N; default DefaultSeeds. -locksim.seeds overrides it.
	Seeds int
	// Scenarios are scenario files (paths) run beside the built-ins.
	Scenarios []string
	// NoBuiltins runs only Scenarios.
	NoBuiltins bool
	// Expect are expectation lines, in the syntax of locksim check's
	// matrix, with or without the pattern field:
	//
	//	gc-pause breaks mutex  # no fencing: a paused holder writes late
	//	mylock node-restart holds safe-store,fencing seeds=40
	//
	// A scenario × claim no line mentions is expected to hold.
	Expect []string
	// ExpectFile is a file of such lines, read after Expect.
	ExpectFile string
	// Dir receives the counterexamples (default DefaultDir, relative to
	// the test's directory); the harness writes there only files named
	// PATTERN--SCENARIO--seed-N.{txt,html,trace}.
	Dir string
	// StallAfter bounds, in real time, one step of a simulated goroutine:
	// a pattern that blocks outside the seams fails the run after it
	// (default DefaultStallAfter).
	StallAfter time.Duration
	// Parallel is how many runs go at once (default GOMAXPROCS).
	Parallel int
	// TestName is the go test name the replay command names; Run sets it.
	TestName string
}

// Run runs p under every scenario of o for o's seeds and fails t with one
// error per deviation from the expectations: the scenario, the claim, the
// seed, the counterexample's files and the replay command.
func Run(t testing.TB, p pattern.Pattern, o Options) {
	t.Helper()
	if o.TestName == "" {
		o.TestName = t.Name()
	}
	rep, err := Check(p, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		t.Error(f.String())
	}
	t.Logf("locksimtest: %s", rep.Summary())
}

// Check runs p under every scenario of o for o's seeds and returns what
// deviated from the expectations. The error is for a check that could not
// be made (a bad pattern, scenario file or expectation line).
func Check(p pattern.Pattern, o Options) (*Report, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("locksimtest: %w", err)
	}
	o = o.withDefaults()
	scs, err := loadScenarios(p, o)
	if err != nil {
		return nil, err
	}
	es, err := parseExpectations(p, o)
	if err != nil {
		return nil, err
	}
	exp, err := byScenario(es, names(scs))
	if err != nil {
		return nil, err
	}
	cells := plan(p, scs, exp, o)
	runAll(cells, o)
	rep := &Report{Pattern: p.Name, Seeds: o.Seeds}
	for _, c := range cells {
		rep.Scenarios++
		rep.Runs += len(c.results)
		fs, err := c.judge(o)
		if err != nil {
			return nil, err
		}
		rep.Findings = append(rep.Findings, fs...)
	}
	return rep, nil
}

func (o Options) withDefaults() Options {
	if *flagSeeds > 0 {
		o.Seeds = *flagSeeds
	}
	if o.Seeds <= 0 {
		o.Seeds = DefaultSeeds
	}
	if o.Dir == "" {
		o.Dir = DefaultDir
	}
	if o.StallAfter <= 0 {
		o.StallAfter = DefaultStallAfter
	}
	if o.Parallel <= 0 {
		o.Parallel = runtime.GOMAXPROCS(0)
	}
	return o
}

// named is a scenario to run and where it came from.
type named struct {
	name   string
	origin string // "built-in" or the file's path
	sc     scenario.Scenario
}

func names(scs []named) []string {
	out := make([]string, len(scs))
	for i, s := range scs {
		out[i] = s.name
	}
	return out
}

// loadScenarios returns the built-ins (unless NoBuiltins) and the files,
// resolved for p's nodes; a file's scenario without a name is named after
// the file.
func loadScenarios(p pattern.Pattern, o Options) ([]named, error) {
	var out []named
	if !o.NoBuiltins {
		for _, b := range scenario.Builtins() {
			sc, err := b.Scenario(p.Nodes)
			if err != nil {
				return nil, fmt.Errorf("locksimtest: built-in %s for %d nodes: %w", b.Name, p.Nodes, err)
			}
			sc.Name = b.Name
			out = append(out, named{name: b.Name, origin: "built-in", sc: sc})
		}
	}
	for _, path := range o.Scenarios {
		n, err := loadFile(p, path)
		if err != nil {
			return nil, err
		}
		for _, prev := range out {
			if prev.name == n.name {
				return nil, fmt.Errorf("locksimtest: scenario file %s: scenario %q, as the %s one", path, n.name, prev.origin)
			}
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("locksimtest: no scenarios: NoBuiltins and no Scenarios")
	}
	return out, nil
}

func loadFile(p pattern.Pattern, path string) (named, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return named{}, fmt.Errorf("locksimtest: scenario file: %w", err)
	}
	sc, err := scenario.ParseString(string(data))
	if err != nil {
		return named{}, fmt.Errorf("locksimtest: scenario file %s: %w", path, err)
	}
	if sc.Name == "" {
		sc.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if sc, err = sc.Resolve(p.Nodes); err != nil {
		return named{}, fmt.Errorf("locksimtest: scenario file %s for pattern %s (%d nodes): %w", path, p.Name, p.Nodes, err)
	}
	return named{name: sc.Name, origin: path, sc: sc}, nil
}

// plan builds one cell per scenario (the one -locksim.scenario names, if
// given), each with its seeds.
func plan(p pattern.Pattern, scs []named, exp map[string]*expected, o Options) []*cell {
	var cells []*cell
	for _, s := range scs {
		if *flagScenario != "" && s.name != *flagScenario {
			continue
		}
		x := exp[s.name]
		if x == nil {
			x = &expected{verdict: map[string]expectation{}}
		}
		n := o.Seeds
		if x.seeds > 0 {
			n = x.seeds
		}
		c := &cell{p: p, s: s, exp: x}
		for seed := uint64(1); seed <= uint64(n); seed++ {
			if *flagSeed == 0 || seed == *flagSeed {
				c.seeds = append(c.seeds, seed)
			}
		}
		c.results = make([]outcome, len(c.seeds))
		cells = append(cells, c)
	}
	return cells
}

// runAll runs every cell's seeds, o.Parallel at once; each result goes to
// its own slot, so the report does not depend on the order runs finish in.
func runAll(cells []*cell, o Options) {
	type job struct {
		c *cell
		i int
	}
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range o.Parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				j.c.results[j.i] = runOne(j.c, j.c.seeds[j.i], o)
			}
		}()
	}
	for _, c := range cells {
		for i := range c.seeds {
			jobs <- job{c, i}
		}
	}
	close(jobs)
	wg.Wait()
}

// runOne runs one seed; a panic that escapes the simulator (it recovers
// those of the simulated goroutines) becomes the run's error.
func runOne(c *cell, seed uint64, o Options) (out outcome) {
	out.seed = seed
	defer func() {
		if r := recover(); r != nil {
			out.err = fmt.Errorf("locksimtest: %s under %s, seed %d: panicked: %v", c.p.Name, c.s.name, seed, r)
		}
	}()
	out.res, out.err = sim.Run(sim.Config{Pattern: c.p, Scenario: c.s.sc, Seed: seed, StallAfter: o.StallAfter})
	return out
}

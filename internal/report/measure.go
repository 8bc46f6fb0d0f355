package report

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/locks"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// Defaults of a Config.
const (
	// DefaultSeeds is the seed count of every fault scenario.
	DefaultSeeds = 20
	// DefaultBaselineSeeds is the seed count of the baseline: 30 simulated
	// seconds of 5 clients, a hundred times the work of a fault scenario.
	DefaultBaselineSeeds = 2
	// Baseline is the scenario without faults that gives liveness its
	// reference, measured with BaselineSeeds.
	Baseline = "steady"
)

// Config is what Measure runs.
type Config struct {
	Seeds         int                // seeds 1..Seeds of every fault scenario (default DefaultSeeds)
	BaselineSeeds int                // seeds 1..BaselineSeeds of Baseline (default DefaultBaselineSeeds)
	Patterns      []pattern.Pattern  // default broken.Catalog().All()
	Scenarios     []scenario.Builtin // default scenario.Builtins()
	// Workers run simulations at once (default 4 per core: a simulation
	// spends much of its real time handing off between goroutines).
	Workers int
	// OnProgress, if set, is called after each run with the runs done and
	// the total, from the goroutine that called Measure: the caller draws
	// the progress (a command's bar).
	OnProgress func(done, total int)
}

func (c Config) withDefaults() (Config, error) {
	if c.Seeds == 0 {
		c.Seeds = DefaultSeeds
	}
	if c.BaselineSeeds == 0 {
		c.BaselineSeeds = DefaultBaselineSeeds
	}
	switch {
	case c.Seeds < 1:
		return c, fmt.Errorf("report: Seeds (%d) must be at least 1", c.Seeds)
	case c.BaselineSeeds < 1:
		return c, fmt.Errorf("report: BaselineSeeds (%d) must be at least 1", c.BaselineSeeds)
	case c.Workers < 0:
		return c, fmt.Errorf("report: Workers (%d) must not be negative", c.Workers)
	}
	if c.Patterns == nil {
		c.Patterns = broken.Catalog().All()
	}
	if c.Scenarios == nil {
		c.Scenarios = scenario.Builtins()
	}
	if c.Workers == 0 {
		c.Workers = 4 * runtime.GOMAXPROCS(0)
	}
	return c, nil
}

// PatternInfo describes a measured pattern.
type PatternInfo struct {
	Name    string
	Summary string
	Pitfall string
	Broken  bool
	Nodes   int
	Claims  pattern.Claims
	// Tokens: the pattern issues fencing tokens (it claims Fencing), so it
	// is also measured with the tokens withheld from the store.
	Tokens bool
	// Shared: several clients may hold at once by design (SharedHolders).
	Shared bool
}

// ScenarioInfo describes a measured scenario.
type ScenarioInfo struct {
	Name     string
	Summary  string
	Seeds    int
	Duration time.Duration // simulated
	Clients  int
	// Drawn: some fault is a schedule, its occurrences drawn over the run
	// (fault.Fault.IsSchedule).
	Drawn bool
	// Text is, for a production scenario, the directives that make its
	// faults, as its file writes them (directives).
	Text []string
}

// Measurements are the aggregated runs: Cells[i][j] is Patterns[i] under
// Scenarios[j].
type Measurements struct {
	Seeds, BaselineSeeds int
	Patterns             []PatternInfo
	Scenarios            []ScenarioInfo
	Cells                [][]*Cell
	Runs                 int // simulations run

	// fenceOnce: patterns that issue tokens run each seed once, with the
	// store checking them (the production grid); otherwise a second time
	// with the tokens withheld.
	fenceOnce bool
	// refusable: a run whose pattern refuses the scenario's options (a
	// locks.OptionError: WAIT on a lock that cannot wait for replicas)
	// marks its cell Refused instead of failing the measurement.
	refusable bool
	// noHistory: no history is kept, so no counterexample is drawn (the
	// production grid gives replay commands instead).
	noHistory bool
	// production and bench are what Build was given beside m, so that
	// every decision of the report (Decide) judges the same evidence.
	production *Measurements
	bench      *Bench
	agreement  *Agreement
}

// Cell returns the cell of pattern under scen, or nil.
func (m *Measurements) Cell(pattern, scen string) *Cell {
	for i, p := range m.Patterns {
		for j, s := range m.Scenarios {
			if p.Name == pattern && s.Name == scen {
				return m.Cells[i][j]
			}
		}
	}
	return nil
}

// job is one simulation: a pattern (by index), a scenario, a seed, and
// whether the store sees the pattern's tokens.
type job struct {
	pi, si  int
	seed    uint64
	noFence bool
}

// Measure runs every pattern under every scenario with its seeds, on
// explore's runner. An error names the first run (in plan order) that
// could not complete; when ctx ends first, Measure stops and returns its
// error.
func Measure(ctx context.Context, cfg Config) (*Measurements, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m, scs, err := newMeasurements(cfg)
	if err != nil {
		return nil, err
	}
	return m.run(ctx, cfg, scs)
}

// run runs m's plan and folds the results into its cells.
func (m *Measurements) run(ctx context.Context, cfg Config, scs [][]scenario.Scenario) (*Measurements, error) {
	jobs := m.plan()
	results := runJobs(ctx, cfg, jobs, scs, m.noHistory)
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("report: measuring stopped: %w", err)
	}
	for i, r := range results {
		j := jobs[i]
		c := m.Cells[j.pi][j.si]
		var refused *locks.OptionError
		switch {
		case r.err != nil && m.refusable && errors.As(r.err, &refused):
			c.Refused = refused.Error()
		case r.err != nil:
			return nil, fmt.Errorf("report: %s under %s, seed %d: %w", m.Patterns[j.pi].Name, m.Scenarios[j.si].Name, j.seed, r.err)
		default:
			c.add(r.run, j.noFence)
		}
	}
	for _, row := range m.Cells {
		for _, c := range row {
			c.finish()
		}
	}
	m.Runs = len(jobs)
	return m, nil
}

// newMeasurements describes the patterns and scenarios, resolves each
// scenario for each pattern's node count, and makes the empty cells.
func newMeasurements(cfg Config) (*Measurements, [][]scenario.Scenario, error) {
	m := &Measurements{Seeds: cfg.Seeds, BaselineSeeds: cfg.BaselineSeeds}
	for _, b := range cfg.Scenarios {
		seeds := cfg.Seeds
		if b.Name == Baseline {
			seeds = cfg.BaselineSeeds
		}
		sc, err := b.Scenario(1)
		if err != nil {
			return nil, nil, fmt.Errorf("report: scenario %s: %w", b.Name, err)
		}
		m.Scenarios = append(m.Scenarios, ScenarioInfo{Name: b.Name, Summary: b.Summary, Seeds: seeds, Duration: sc.Duration, Clients: sc.Clients, Drawn: drawn(sc)})
	}
	scs := make([][]scenario.Scenario, len(cfg.Patterns))
	m.Cells = make([][]*Cell, len(cfg.Patterns))
	for i, p := range cfg.Patterns {
		m.Patterns = append(m.Patterns, patternInfo(p))
		for _, b := range cfg.Scenarios {
			sc, err := b.Scenario(p.Nodes)
			if err != nil {
				return nil, nil, fmt.Errorf("report: scenario %s for %s: %w", b.Name, p.Name, err)
			}
			scs[i] = append(scs[i], sc)
			m.Cells[i] = append(m.Cells[i], &Cell{Pattern: p.Name, Scenario: b.Name})
		}
	}
	return m, scs, nil
}

func patternInfo(p pattern.Pattern) PatternInfo {
	return PatternInfo{Name: p.Name, Summary: p.Summary, Pitfall: p.Pitfall, Broken: p.Broken, Nodes: p.Nodes, Claims: p.Claims, Tokens: p.Claims.Has(pattern.ClaimFencing), Shared: SharedHolders(p)}
}

// plan lists the runs, the baseline's first: they are the longest, and
// starting them first keeps every worker busy to the end.
func (m *Measurements) plan() []job {
	var first, rest []job
	for si, s := range m.Scenarios {
		for pi, p := range m.Patterns {
			for seed := 1; seed <= s.Seeds; seed++ {
				js := []job{{pi: pi, si: si, seed: uint64(seed)}}
				if p.Tokens && !m.fenceOnce {
					js = append(js, job{pi: pi, si: si, seed: uint64(seed), noFence: true})
				}
				if s.Name == Baseline {
					first = append(first, js...)
				} else {
					rest = append(rest, js...)
				}
			}
		}
	}
	return slices.Concat(first, rest)
}

// result is one simulation's outcome.
type result struct {
	run *sim.Result
	err error
}

// runJobs runs the jobs on cfg.Workers workers (explore.Pool); results
// come back in job order, whatever order the workers finish in. Only the
// history of each cell's lowest violating seed of each kind of claim is
// kept: the one drawn is among them.
func runJobs(ctx context.Context, cfg Config, jobs []job, scs [][]scenario.Scenario, noHistory bool) []result {
	out := make([]result, len(jobs))
	k := keeper{first: map[[3]int]int{}, none: noHistory}
	n := 0
	explore.Pool(ctx, len(jobs), cfg.Workers, func(i int) result {
		j := jobs[i]
		p := cfg.Patterns[j.pi]
		if j.noFence {
			p = withoutTokens(p)
		}
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: scs[j.pi][j.si], Seed: j.seed})
		return result{run: res, err: err}
	}, func(i int, r result) {
		out[i] = r
		if r.err == nil {
			k.keep(out, jobs, i)
		}
		n++
		if cfg.OnProgress != nil {
			cfg.OnProgress(n, len(jobs))
		}
	})
	return out
}

// keeper keeps, for each cell and kind of claim, the history of the lowest
// seed so far that broke a claim of that kind, and drops every other.
type keeper struct {
	first map[[3]int]int // cell and kind → index of the result holding its history
	none  bool           // keep no history at all
}

func (k *keeper) keep(out []result, jobs []job, i int) {
	j, res := jobs[i], out[i].run
	kinds := runKinds(res)
	if k.none || j.noFence || len(kinds) == 0 {
		res.History = nil
		return
	}
	held := false
	for _, kind := range kinds {
		key := [3]int{j.pi, j.si, int(kind)}
		prev, ok := k.first[key]
		switch {
		case !ok:
			k.first[key], held = i, true
		case jobs[prev].seed > j.seed:
			k.first[key], held = i, true
			k.release(out, jobs, prev)
		}
	}
	if !held {
		res.History = nil
	}
}

// release drops result prev's history unless some kind of its cell still
// holds it.
func (k *keeper) release(out []result, jobs []job, prev int) {
	j := jobs[prev]
	for _, kind := range Kinds {
		if idx, ok := k.first[[3]int{j.pi, j.si, int(kind)}]; ok && idx == prev {
			return
		}
	}
	out[prev].run.History = nil
}

package report

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// A safety curve is a pattern's violation rate, with its interval, as one
// fault's size varies: pause length over the TTL, client clock drift,
// node count, replica lag over the TTL, critical-section length over the
// TTL. Each point is a scenario built from a base (the default scenario,
// or a team's own file: its TTL, clients, workload, network and faults)
// with the swept fault added, run over seeds 1..N.

// Dimension is what a sweep varies.
type Dimension struct {
	Name    string    // pause, drift, nodes, replica-lag, work
	Axis    string    // the x axis: "pause length / TTL"
	Summary string    // what each point does
	Points  []float64 // the default points
	// MultiNode: only patterns with several nodes vary along it.
	MultiNode bool
	// Build returns base with the point's fault; nodes is the pattern's.
	Build func(base scenario.Scenario, v float64, nodes int) scenario.Scenario
}

// Dimensions returns the sweeps, in the order the report draws them.
func Dimensions() []Dimension {
	return []Dimension{
		{Name: "pause", Axis: "pause length / TTL", Summary: "c1 pauses (GC) for v × TTL between its lease check and its write",
			Points: []float64{0.25, 0.5, 0.75, 1, 1.25, 1.5, 2}, Build: sweepPause},
		{Name: "drift", Axis: "c1's clock rate, % slow", Summary: "c1's clock runs v% slow and its work takes 50ms longer",
			Points: []float64{0, 5, 10, 20, 30, 40, 50}, Build: sweepDrift},
		{Name: "nodes", Axis: "independent nodes", Summary: "n1 restarts empty while c1 holds the lock, among v nodes",
			Points: []float64{1, 3, 5, 7}, MultiNode: true, Build: sweepNodes},
		{Name: "replica-lag", Axis: "replica lag / TTL", Summary: "n1 fails over, once c1 holds the lock, to a replica v × TTL behind",
			Points: []float64{0.1, 0.25, 0.5, 1, 1.5, 2}, Build: sweepLag},
		{Name: "work", Axis: "critical-section time after the lease check / TTL", Summary: "every section spends v × TTL preparing its write after its lease check (the part of the work a lease check cannot cover)",
			Points: []float64{0.25, 0.5, 0.75, 1, 1.5, 2}, Build: sweepWork},
	}
}

// LookupDimension returns the dimension named name.
func LookupDimension(name string) (Dimension, error) {
	var names []string
	for _, d := range Dimensions() {
		if d.Name == name {
			return d, nil
		}
		names = append(names, d.Name)
	}
	return Dimension{}, fmt.Errorf("unknown sweep dimension %q (known: %s)", name, strings.Join(names, ", "))
}

func ttlTimes(s scenario.Scenario, v float64) time.Duration {
	return time.Duration(v * float64(s.TTL)).Round(time.Microsecond)
}

func withFault(s scenario.Scenario, f ...fault.Fault) scenario.Scenario {
	s.Faults = append(slices.Clone(s.Faults), f...)
	return s
}

func sweepPause(s scenario.Scenario, v float64, _ int) scenario.Scenario {
	return withFault(s, fault.Fault{Kind: fault.Pause, Target: "c1", When: on("c1", fault.Write), For: ttlTimes(s, v)})
}

func sweepDrift(s scenario.Scenario, v float64, _ int) scenario.Scenario {
	s = withFault(s, fault.Fault{Kind: fault.Slow, Target: "c1", When: on("c1", fault.Work), For: 50 * time.Millisecond})
	if v == 0 {
		return s
	}
	return withFault(s, fault.Fault{Kind: fault.Drift, Target: "c1", PPM: -int64(v * 10_000)})
}

func sweepNodes(s scenario.Scenario, v float64, _ int) scenario.Scenario {
	s.Nodes = int(v)
	return withFault(s, fault.Fault{Kind: fault.Crash, Target: "n1", When: on("c1", fault.Acquired), For: 5 * time.Millisecond})
}

func sweepLag(s scenario.Scenario, v float64, _ int) scenario.Scenario {
	s.Replicas = max(ttlTimes(s, v), time.Microsecond)
	return withFault(s, fault.Fault{Kind: fault.Failover, Target: "n1", When: on("c1", fault.Acquired)})
}

func sweepWork(s scenario.Scenario, v float64, _ int) scenario.Scenario {
	s.Workload.Prep = ttlTimes(s, v)
	return s
}

func on(client string, p fault.Point) fault.When { return fault.When{Client: client, Point: p, N: 1} }

// SweepConfig is one sweep: a dimension, its points, the patterns, the
// base scenario and the seeds of every point.
type SweepConfig struct {
	Dimension Dimension
	Points    []float64          // default Dimension.Points
	Patterns  []pattern.Pattern  // required
	Base      *scenario.Scenario // default scenario.Default()
	Seeds     int                // seeds 1..Seeds per point (default 10)
	Workers   int
	// OnProgress, if set, is called after each run (see Config.OnProgress).
	OnProgress func(done, total int)
}

// DefaultSweepSeeds is the seed count of every point of a sweep.
const DefaultSweepSeeds = 10

// Sweep is a sweep's outcome: Cells[i][k] is Patterns[i] at Points[k].
type Sweep struct {
	Dimension Dimension
	Points    []float64
	Base      string // the base scenario's name, "default" when built in
	Patterns  []PatternInfo
	Cells     [][]*Cell
	Runs      int
}

// RunSweep measures every pattern at every point. For a MultiNode
// dimension the patterns of one node are left out (an error if none is
// left). It stops when ctx ends, with ctx's error.
func RunSweep(ctx context.Context, cfg SweepConfig) (*Sweep, error) {
	if cfg.Seeds == 0 {
		cfg.Seeds = DefaultSweepSeeds
	}
	if cfg.Points == nil {
		cfg.Points = cfg.Dimension.Points
	}
	base := sweepBase()
	if cfg.Base != nil {
		base = *cfg.Base
	}
	pats, err := sweepPatterns(cfg)
	if err != nil {
		return nil, err
	}
	var bs []scenario.Builtin
	for _, v := range cfg.Points {
		bs = append(bs, scenario.Builtin{Name: cfg.Dimension.Name + "=" + strconv.FormatFloat(v, 'g', -1, 64), Summary: cfg.Dimension.Summary,
			Make: func(nodes int) scenario.Scenario { return cfg.Dimension.Build(base, v, nodes) }})
	}
	m, err := Measure(ctx, Config{Seeds: cfg.Seeds, Patterns: pats, Scenarios: bs, Workers: cfg.Workers, OnProgress: cfg.OnProgress})
	if err != nil {
		return nil, fmt.Errorf("report: sweep %s: %w", cfg.Dimension.Name, err)
	}
	name := base.Name
	if name == "" {
		name = "default"
	}
	return &Sweep{Dimension: cfg.Dimension, Points: cfg.Points, Base: name, Patterns: m.Patterns, Cells: m.Cells, Runs: m.Runs}, nil
}

func sweepPatterns(cfg SweepConfig) ([]pattern.Pattern, error) {
	if len(cfg.Patterns) == 0 {
		return nil, errors.New("report: sweep: no pattern given")
	}
	if len(cfg.Points) == 0 {
		return nil, fmt.Errorf("report: sweep %s: no points", cfg.Dimension.Name)
	}
	if !cfg.Dimension.MultiNode {
		return cfg.Patterns, nil
	}
	var out []pattern.Pattern
	for _, p := range cfg.Patterns {
		if p.Nodes > 1 {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("report: sweep %s: no pattern of several nodes among those given", cfg.Dimension.Name)
	}
	for _, v := range cfg.Points {
		if v < 1 || v != float64(int(v)) {
			return nil, fmt.Errorf("report: sweep %s: point %g is not a node count", cfg.Dimension.Name, v)
		}
	}
	return out, nil
}

// SweepPatterns names the patterns the report sweeps: one of each kind of
// protection — none (basic; in the safety table reentrant, fair and
// rwlock-write break where it does), renewal (watchdog,
// service), fencing (fenced) and a quorum (redlock) — so that each curve
// stays readable.
var SweepPatterns = []string{"basic", "watchdog", "service", "fenced", "redlock"}

// ReportSweepPatterns returns the catalog's SweepPatterns.
func ReportSweepPatterns() []pattern.Pattern {
	var out []pattern.Pattern
	for _, p := range broken.Catalog().All() {
		if slices.Contains(SweepPatterns, p.Name) {
			out = append(out, p)
		}
	}
	return out
}

// MeasureSweeps runs every dimension with seeds seeds per point over
// patterns — the correct, exclusive ones among them; nil means
// ReportSweepPatterns. A dimension none of them can vary along (nodes,
// for single-node patterns) is left out. onProgress, if set, is called
// after each run of each sweep.
func MeasureSweeps(ctx context.Context, patterns []pattern.Pattern, seeds, workers int, onProgress func(done, total int)) ([]*Sweep, error) {
	pats := ReportSweepPatterns()
	if patterns != nil {
		pats = nil
		for _, p := range patterns {
			if !p.Broken && !SharedHolders(p) {
				pats = append(pats, p)
			}
		}
	}
	if len(pats) == 0 {
		return nil, nil
	}
	var out []*Sweep
	for _, d := range Dimensions() {
		if d.MultiNode && !slices.ContainsFunc(pats, func(p pattern.Pattern) bool { return p.Nodes > 1 }) {
			continue
		}
		s, err := RunSweep(ctx, SweepConfig{Dimension: d, Patterns: pats, Seeds: seeds, Workers: workers, OnProgress: onProgress})
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// sweepBase is the default base scenario.
func sweepBase() scenario.Scenario { return scenario.Default() }

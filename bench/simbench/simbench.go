// Package simbench measures the simulator itself: seeds per minute, per
// pattern, of one scenario run one seed after another on one goroutine —
// what `locksim explore --parallel 1` gets from one core. Each repetition
// runs every pattern once, in an order rotated each repetition, over the
// same seeds; figures are medians over repetitions with the distribution-
// free intervals of package bench, and the goal (a rate per pattern) is met,
// missed or within noise from the interval.
//
// Rates are given per minute of wall time and per minute of CPU time (user
// + system of the whole process): on a shared machine the wall rate moves
// with everyone else's load, the CPU rate much less.
package simbench

import (
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/locksim/locksim/bench"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// Config says what to measure.
type Config struct {
	Patterns []pattern.Pattern
	Scenario string // built-in scenario name
	Seeds    int    // seeds per pattern per repetition
	Reps     int
	Goal     float64 // seeds per CPU-minute each pattern should reach
	// Progress, if set, is called after each pattern of each repetition.
	Progress func(rep int, pattern string)
}

// Sample is one pattern's seeds in one repetition.
type Sample struct {
	Pattern  string        `json:"pattern"`
	Rep      int           `json:"rep"`
	Seeds    int           `json:"seeds"`
	Wall     time.Duration `json:"wall_ns"`
	CPU      time.Duration `json:"cpu_ns"`
	Commands int           `json:"commands"` // simulated Redis commands, all seeds
}

// SeedsPerMin is the wall-time rate.
func (s Sample) SeedsPerMin() float64 { return perMin(s.Seeds, s.Wall) }

// SeedsPerCPUMin is the CPU-time rate.
func (s Sample) SeedsPerCPUMin() float64 { return perMin(s.Seeds, s.CPU) }

func perMin(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) * float64(time.Minute) / float64(d)
}

// Row is one pattern over every repetition.
type Row struct {
	Pattern     string         `json:"pattern"`
	Nodes       int            `json:"nodes"`
	Reps        int            `json:"reps"`
	CmdsPerSeed float64        `json:"cmds_per_seed"`
	PerMin      bench.Interval `json:"seeds_per_min"`
	PerCPUMin   bench.Interval `json:"seeds_per_cpu_min"`
	Status      string         `json:"status"` // against Config.Goal, from PerCPUMin's interval
}

// Result is a whole measurement.
type Result struct {
	Config  Config   `json:"-"`
	Started string   `json:"started"`
	Samples []Sample `json:"samples"`
	Rows    []Row    `json:"rows"`
}

// Run measures every pattern.
func Run(cfg Config) (*Result, error) {
	if cfg.Seeds <= 0 || cfg.Reps <= 0 {
		return nil, fmt.Errorf("simbench: seeds (%d) and reps (%d) must be positive", cfg.Seeds, cfg.Reps)
	}
	res := &Result{Config: cfg, Started: time.Now().UTC().Format("2006-01-02 15:04 UTC")}
	for rep := range cfg.Reps {
		for i := range cfg.Patterns {
			p := cfg.Patterns[(i+rep)%len(cfg.Patterns)] // rotated: no pattern always runs first
			s, err := measure(p, cfg, rep)
			if err != nil {
				return nil, err
			}
			res.Samples = append(res.Samples, s)
			if cfg.Progress != nil {
				cfg.Progress(rep, p.Name)
			}
		}
	}
	res.Rows = rows(cfg, res.Samples)
	return res, nil
}

// measure runs seeds 1..cfg.Seeds of one pattern, one after another.
func measure(p pattern.Pattern, cfg Config, rep int) (Sample, error) {
	sc, err := scenario.Lookup(cfg.Scenario, p.Nodes)
	if err != nil {
		return Sample{}, fmt.Errorf("simbench: scenario %q: %w", cfg.Scenario, err)
	}
	s := Sample{Pattern: p.Name, Rep: rep, Seeds: cfg.Seeds}
	cpu0, start := cpuTime(), time.Now()
	for seed := range uint64(cfg.Seeds) {
		r, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: seed + 1})
		if err != nil {
			return Sample{}, fmt.Errorf("simbench: %s seed %d: %w", p.Name, seed+1, err)
		}
		s.Commands += r.Stats.Commands
	}
	s.Wall, s.CPU = time.Since(start), cpuTime()-cpu0
	return s, nil
}

func rows(cfg Config, ss []Sample) []Row {
	var out []Row
	for _, p := range cfg.Patterns {
		var wall, cpu []float64
		r := Row{Pattern: p.Name, Nodes: p.Nodes}
		for _, s := range ss {
			if s.Pattern == p.Name {
				wall, cpu = append(wall, s.SeedsPerMin()), append(cpu, s.SeedsPerCPUMin())
				r.Reps++
				r.CmdsPerSeed = float64(s.Commands) / float64(s.Seeds)
			}
		}
		r.PerMin, r.PerCPUMin = bench.MedianInterval(wall), bench.MedianInterval(cpu)
		r.Status = r.PerCPUMin.Verdict(cfg.Goal)
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b Row) int { return strings.Compare(a.Pattern, b.Pattern) })
	return out
}

// cpuTime is the process's user + system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

package report

import (
	"context"
	"fmt"
)

// Phases are every measurement a report is made of, run in order: the grid
// of the built-in scenarios (Config), the safety curves (SweepSeeds
// seeds a point, none at 0) and the production faults (ProductionSeeds
// seeds a scenario of a simulated second, none at 0).
type Phases struct {
	Config
	SweepSeeds      int
	ProductionSeeds int
	// Phase, if set, is told each phase as it starts — its name (grid,
	// sweeps, production) and what it measures, "" for the grid — and
	// returns the phase's progress callback (nil for none).
	Phase func(name, what string) func(done, total int)
}

// Measured is what the Phases measured.
type Measured struct {
	Grid       *Measurements
	Sweeps     []*Sweep
	Production *Measurements // nil without production faults
	Runs       int           // simulations in all phases
}

// Run measures every phase; it stops at the first error, ctx's when it
// ends first.
func (b Phases) Run(ctx context.Context) (*Measured, error) {
	grid := b.Config
	grid.OnProgress = b.phase("grid", "")
	m, err := Measure(ctx, grid)
	if err != nil {
		return nil, err
	}
	out := &Measured{Grid: m, Runs: m.Runs}
	if b.SweepSeeds > 0 {
		progress := b.phase("sweeps", fmt.Sprintf("safety curves, %d seeds per point", b.SweepSeeds))
		if out.Sweeps, err = MeasureSweeps(ctx, b.Patterns, b.SweepSeeds, b.Workers, progress); err != nil {
			return nil, err
		}
		for _, s := range out.Sweeps {
			out.Runs += s.Runs
		}
	}
	if b.ProductionSeeds > 0 {
		prod := b.Config
		prod.Seeds, prod.Scenarios = b.ProductionSeeds, nil
		prod.OnProgress = b.phase("production", fmt.Sprintf("production faults, %d seeds per scenario of a simulated second", b.ProductionSeeds))
		if out.Production, err = MeasureProduction(ctx, prod); err != nil {
			return nil, err
		}
		out.Runs += out.Production.Runs
	}
	return out, nil
}

func (b Phases) phase(name, what string) func(done, total int) {
	if b.Phase == nil {
		return nil
	}
	return b.Phase(name, what)
}

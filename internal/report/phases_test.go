package report

import (
	"context"
	"slices"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/scenario"
)

// TestPhasesRunInOrder: the grid, the safety curves and the production
// faults run in that order, each told to Phase as it starts, and Runs is
// the simulations of all three (the report's command summed them by
// hand); a phase with no seeds does not run.
func TestPhasesRunInOrder(t *testing.T) {
	basic, err := pattern.Lookup("basic")
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenarioBuiltin("gc-pause")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seeds: 1, BaselineSeeds: 1, Patterns: []pattern.Pattern{basic}, Scenarios: []scenario.Builtin{b}, Workers: 2}
	var told []string
	ph := Phases{Config: cfg, SweepSeeds: 1, ProductionSeeds: 1, Phase: func(name, what string) func(int, int) {
		told = append(told, name)
		return nil
	}}
	got, err := ph.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"grid", "sweeps", "production"}; !slices.Equal(told, want) {
		t.Errorf("phases told %q, want %q", told, want)
	}
	sum := got.Grid.Runs + got.Production.Runs
	for _, s := range got.Sweeps {
		sum += s.Runs
	}
	if got.Runs != sum || len(got.Sweeps) == 0 || got.Production.Runs == 0 {
		t.Errorf("Runs %d; grid %d, %d sweeps, production %v: want their sum, each phase run", got.Runs, got.Grid.Runs, len(got.Sweeps), got.Production)
	}
	told = nil
	ph.SweepSeeds, ph.ProductionSeeds = 0, 0
	if got, err = ph.Run(context.Background()); err != nil || got.Runs != got.Grid.Runs || got.Production != nil || !slices.Equal(told, []string{"grid"}) {
		t.Errorf("without curves and production: %+v, %v, told %q; want the grid alone", got, err, told)
	}
}

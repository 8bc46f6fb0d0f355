package report

import (
	"embed"
	"fmt"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/gate"
)

// The report's own scenarios, for a fault kind that neither a built-in
// nor a gate scenario exercises: each file is named after its scenario
// line, and is selectable by name (locksim run --scenario NAME) beside
// the built-ins and the gate's.
//
//go:embed scenarios/*.txt
var ownFiles embed.FS

// ScenarioDir is where the report's own scenario files live in the
// repository.
const ScenarioDir = "internal/report/scenarios"

func init() {
	scs, err := ownScenarios()
	if err != nil {
		panic(err) // embedded files, parsed by the tests
	}
	for _, sc := range scs {
		explore.RegisterNamed(sc)
	}
}

// ownScenarios parses the report's own scenario files, sorted by name.
func ownScenarios() ([]explore.Scenario, error) {
	return explore.ScenarioFiles(ownFiles, "scenarios", ScenarioDir)
}

// namedScenarios are the scenarios the production section can name: the
// gate's files, then the report's own.
func namedScenarios() ([]explore.Scenario, error) {
	g, err := gate.Scenarios()
	if err != nil {
		return nil, fmt.Errorf("report: the gate's scenarios: %w", err)
	}
	own, err := ownScenarios()
	if err != nil {
		return nil, fmt.Errorf("report: its own scenarios: %w", err)
	}
	return append(g, own...), nil
}

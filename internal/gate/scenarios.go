package gate

import (
	"embed"
	"io/fs"

	"github.com/locksim/locksim/internal/explore"
)

// The gate's own scenarios, for faults no built-in shows: each file is
// named after its scenario line.
//
//go:embed scenarios/*.txt
var embedded embed.FS

// scenarioFiles holds scenarios/*.txt (tests replace it).
var scenarioFiles fs.FS = embedded

// ScenarioDir is where the gate's scenario files live in the repository.
// Replay commands name them by their names, which locksim run and explore
// resolve (the files are embedded), from any directory.
const ScenarioDir = "internal/gate/scenarios"

// The gate's own scenarios are selectable by name beside the built-ins.
func init() {
	scs, err := Scenarios()
	if err != nil {
		panic(err) // embedded files, parsed by the tests
	}
	for _, sc := range scs {
		explore.RegisterNamed(sc)
	}
}

// Scenarios returns the gate's own scenarios, sorted by name.
func Scenarios() ([]explore.Scenario, error) {
	return explore.ScenarioFiles(scenarioFiles, "scenarios", ScenarioDir)
}

// lookupScenario returns the built-in named name or, failing that, the
// gate's own scenario of that name.
func lookupScenario(name string) (explore.Scenario, error) { return explore.Named(name) }

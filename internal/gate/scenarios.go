package gate

import (
	"bytes"
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/sim/scenario"
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
	entries, err := fs.ReadDir(scenarioFiles, "scenarios")
	if err != nil {
		return nil, err
	}
	var out []explore.Scenario
	for _, e := range entries {
		sc, err := readScenario(e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	return out, nil
}

func readScenario(file string) (explore.Scenario, error) {
	data, err := fs.ReadFile(scenarioFiles, "scenarios/"+file)
	if err != nil {
		return explore.Scenario{}, err
	}
	where := path.Join(ScenarioDir, file)
	sc, err := scenario.Parse(bytes.NewReader(data))
	if err != nil {
		return explore.Scenario{}, fmt.Errorf("%s: %w", where, err)
	}
	if want := strings.TrimSuffix(file, ".txt"); sc.Name != want {
		return explore.Scenario{}, fmt.Errorf("%s: scenario %q, want it named after the file (%q)", where, sc.Name, want)
	}
	return explore.Parsed(where, sc, data), nil
}

// lookupScenario returns the built-in named name or, failing that, the
// gate's own scenario of that name.
func lookupScenario(name string) (explore.Scenario, error) { return explore.Named(name) }

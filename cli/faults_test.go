package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeScenario writes text to a scenario file in a fresh directory.
func writeScenario(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// deadFaults is a 1s scenario with one fault that fires and two that
// cannot: one after the end, one at a point reached too few times.
const deadFaults = `start nodes=1 clients=2 ttl=100ms duration=1s
pause c1 at=100ms for=10ms
crash n1 at=5s
pause c2 on=write n=100000 for=10ms
`

func TestRunSaysWhichFaultsDidNotFire(t *testing.T) {
	path := writeScenario(t, "dead.txt", deadFaults)
	out, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", path, "--seed", "1")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	for _, want := range []string{
		"faults    fired: 1 of 3; crash n1 at=5s persist=no did not fire: the run ends at 1s; pause c2 on=write n=100000 for=10ms did not fire: c2 reached write only ",
		"verdict   ok: no claim violated in this one seed, but 2 of 3 faults did not fire",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "verdict   ok: no claim violated in this one seed;") {
		t.Errorf("run with dead faults reads as a clean ok:\n%s", out)
	}
}

func TestRunJSONRecordsFaultFiring(t *testing.T) {
	path := writeScenario(t, "dead.txt", deadFaults)
	out, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", path, "--seed", "1", "--json")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, out)
	}
	var res struct {
		Faults []struct {
			Fault string `json:"fault"`
			Fired bool   `json:"fired"`
			Why   string `json:"why"`
		} `json:"faults"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(res.Faults) != 3 || !res.Faults[0].Fired || res.Faults[1].Fired || res.Faults[1].Why != "the run ends at 1s" || res.Faults[2].Fired {
		t.Errorf("faults = %+v, want the first fired, the crash not (the run ends at 1s), the third not", res.Faults)
	}
}

func TestRunWithEveryFaultFiredSaysSo(t *testing.T) {
	out, _, err := runCLI(t, "run", "--pattern", "fenced", "--scenario", "gc-pause", "--seed", "1")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "faults    fired: 1 of 1\n") || !strings.Contains(out, "verdict   ok: no claim violated in this one seed; one seed is no rate") {
		t.Errorf("gc-pause under fenced: want every fault fired and a clean ok:\n%s", out)
	}
}

func TestExploreSaysWhichFaultsDidNotFire(t *testing.T) {
	path := writeScenario(t, "dead.txt", deadFaults)
	out, _, err := runCLI(t, "explore", "--pattern", "fenced", "--scenario", path, "--seeds", "3")
	if err != nil {
		t.Fatalf("explore: %v\n%s", err, out)
	}
	want := "FAULT NOT FIRED fenced under dead: crash n1 at=5s persist=no did not fire in 3 of 3 runs; seed 1: the run ends at 1s"
	if !strings.Contains(out, want) {
		t.Errorf("explore output lacks %q:\n%s", want, out)
	}
	js, _, err := runCLI(t, "explore", "--pattern", "fenced", "--scenario", path, "--seeds", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js, `"fault": "crash n1 at=5s persist=no",
          "fired_runs": 0,
          "missed_runs": 3,`) {
		t.Errorf("explore --json lacks the crash's counts:\n%s", js)
	}
}

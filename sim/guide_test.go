package sim_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// guideRun is a command of docs/scenarios.md's first section with the exit
// status its comment promises.
var guideRun = regexp.MustCompile(`^locksim run --pattern (\S+) --scenario (\S+) --seed (\d+)\s+# exit (\d)`)

// TestScenarioGuideFirstFile: the guide's first scenario, run as its
// commands say, gives the exit status (violation or none) they promise.
func TestScenarioGuideFirstFile(t *testing.T) {
	data, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	md := string(data)
	_, rest, _ := strings.Cut(md, "\n```scenario\n")
	file, rest, _ := strings.Cut(rest, "\n```\n")
	_, rest, _ = strings.Cut(rest, "\n```sh\n")
	cmds, _, _ := strings.Cut(rest, "\n```\n")
	sc, err := scenario.ParseString(file + "\n")
	if err != nil {
		t.Fatal(err)
	}
	runs := 0
	for _, l := range strings.Split(cmds, "\n") {
		m := guideRun.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		runs++
		p, err := pattern.Lookup(m[1])
		if err != nil {
			t.Fatal(err)
		}
		seed, _ := strconv.ParseUint(m[3], 10, 64)
		res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if violated := len(res.Violated) > 0; violated != (m[4] == "1") {
			t.Errorf("%s: violated %v, the guide says exit %s", l, res.Violated, m[4])
		}
	}
	if runs != 2 {
		t.Errorf("read %d commands from the guide's first sh block, want 2:\n%s", runs, cmds)
	}
}

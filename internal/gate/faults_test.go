package gate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/sim"
)

// scenarioFile writes a scenario file for the test and returns its path,
// which an expectations line names as its scenario.
func scenarioFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func checkReal(t *testing.T, text string, seeds int) *Result {
	t.Helper()
	m, err := Parse("x.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), m, Options{Seeds: seeds, Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A gate scenario with a fault that cannot fire (after the end of the
// run) fails the gate, even though the claim holds.
func TestCheckFailsOnAFaultThatNeverFires(t *testing.T) {
	dead := scenarioFile(t, "dead.txt", `scenario dead
start nodes=1 clients=2 ttl=100ms duration=1s
pause c1 at=100ms for=10ms
crash n1 at=5s for=10ms
`)
	res := checkReal(t, "fenced "+dead+" holds safe-store,fencing\n", 3)
	d := lineDeviations(res)
	if len(d) != 1 {
		t.Fatalf("deviations %+v, want one: the crash never fired", d)
	}
	if !strings.Contains(d[0].What, `fault "crash n1 at=5s for=10ms persist=no" never fired`) ||
		!strings.Contains(d[0].Seen, "none of 3 runs; seed 1: the run ends at 1s") || d[0].Line != 1 {
		t.Errorf("deviation %+v, want line 1 naming the crash, none of 3 runs, the run ends at 1s", d[0])
	}
	if res.Checks[0].Broke != 0 || !res.Checks[0].OK {
		t.Errorf("check %+v, want the claim itself to hold", res.Checks[0])
	}
}

// The rule is "fires in at least one run of the cell", not "in every
// run": a fault on a workload point may miss a seed whose workload went
// another way, and the cell still tests it.
func TestCheckPassesAFaultThatFiresInSomeSeeds(t *testing.T) {
	someSeeds := func(cfg sim.Config) (*sim.Result, error) {
		r, err := standard.run(cfg)
		if err == nil {
			r.Faults = []sim.FaultFiring{{Fault: "pause c1 on=write for=150ms", Fired: cfg.Seed%2 == 0, Why: "c1 never reached write"}}
		}
		return r, err
	}
	m, err := Parse("x.txt", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Check(context.Background(), m, Options{Seeds: 6, Parallel: 2, Run: someSeeds})
	if err != nil {
		t.Fatal(err)
	}
	if d := lineDeviations(res); len(d) != 0 {
		t.Errorf("deviations %+v, want none", d)
	}
	never := func(cfg sim.Config) (*sim.Result, error) {
		r, err := someSeeds(cfg)
		if err == nil {
			r.Faults[0].Fired = false
		}
		return r, err
	}
	if res, err = Check(context.Background(), m, Options{Seeds: 6, Parallel: 2, Run: never}); err != nil {
		t.Fatal(err)
	}
	if d := lineDeviations(res); len(d) != 3 || !strings.Contains(d[0].Seen, "none of 6 runs; seed 1: c1 never reached write") {
		t.Errorf("deviations %+v, want one per cell (3), the fault fired in none of 6 runs", d)
	}
}

// The check records the expectations file it ran, with its sha256, and
// the locksim that ran it.
func TestCheckRecordsWhatItRan(t *testing.T) {
	res := check(t, good, standard)
	e := res.Made.Expectations
	if e == nil || e.Path != "x.txt" || e.SHA256 != explore.Hash([]byte(good)) || res.Made.Version == "" {
		t.Errorf("Made = %+v (expectations %+v), want x.txt with the sha256 of its text and a version", res.Made, e)
	}
}

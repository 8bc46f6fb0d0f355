package explore

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/locksim/locksim/sim"
)

// rateRun is a run of half a simulated hour with 250,000 acquisitions and
// one violation in odd seeds.
func rateRun(cfg sim.Config) (*sim.Result, error) {
	r := &sim.Result{Claims: []string{"mutex"}, Violated: []string{}}
	r.Stats.SimTime = 30 * time.Minute
	r.Liveness.Acquisitions = 250_000
	if cfg.Seed%2 == 1 {
		r.Violated, r.Safety.Overlaps, r.Stats.Violations = []string{"mutex"}, 1, 1
	}
	return r, nil
}

// TestRatesPerHourAndPerMillion: four runs, two simulated hours, a million
// acquisitions, two violations: 1 per simulated hour, 2 per million
// acquisitions, in the JSON and the text.
func TestRatesPerHourAndPerMillion(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 4})[:1]
	rep, err := Run(context.Background(), cells, Options{Parallel: 2, Run: rateRun})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cells[0]
	if c.SimTimeNs != int64(2*time.Hour) || c.Violations != 2 {
		t.Fatalf("sim time %v, violations %d: want 2h and 2", time.Duration(c.SimTimeNs), c.Violations)
	}
	if c.ViolationsPerSimHour != 1 || c.ViolationsPerMillionAcquisitions != 2 {
		t.Errorf("rates %v/h, %v per million acquisitions: want 1 and 2", c.ViolationsPerSimHour, c.ViolationsPerMillionAcquisitions)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "VIOL/SIM-H") || !strings.Contains(b.String(), "1.00        2.00") {
		t.Errorf("text lacks the rates:\n%s", b.String())
	}
}

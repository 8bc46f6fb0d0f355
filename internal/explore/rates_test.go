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

// fencedRun is a run of a pattern that claims no mutex (fenced's claims)
// whose clients overlapped twice in half a simulated hour: the store's
// fencing made it harmless, and no claim was broken.
func fencedRun(cfg sim.Config) (*sim.Result, error) {
	r := &sim.Result{Pattern: "fenced", Claims: []string{"safe-store", "fencing", "progress", "loss-signal"}, Violated: []string{}}
	r.Stats.SimTime = 30 * time.Minute
	r.Liveness.Acquisitions = 250_000
	r.Safety.Overlaps, r.Stats.Violations = 2, 2
	return r, nil
}

// TestRatesCountOnlyTheClaims: the rates count what the verdict counts,
// the pattern's claims; the overlaps of a pattern that claims no mutex are
// reported apart, labelled as not its claim, in the JSON and the text.
func TestRatesCountOnlyTheClaims(t *testing.T) {
	cells := smallGrid(t, Seeds{Start: 1, Count: 4})[:1]
	rep, err := Run(context.Background(), cells, Options{Parallel: 2, Run: fencedRun})
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Cells[0]
	if c.ViolatingRuns != 0 || c.ClaimViolations != 0 || c.ViolationsPerSimHour != 0 || c.ViolationsPerMillionAcquisitions != 0 {
		t.Errorf("violating runs %d, claim violations %d, rates %v/h and %v/M: want 0 for a cell that broke no claim",
			c.ViolatingRuns, c.ClaimViolations, c.ViolationsPerSimHour, c.ViolationsPerMillionAcquisitions)
	}
	if c.Violations != 8 || c.Unclaimed["mutex"] != 8 {
		t.Errorf("violations %d, unclaimed %v: want every finding (8) kept, the overlaps as unclaimed mutex", c.Violations, c.Unclaimed)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if want := "8 overlaps (mutex is not a claim of"; !strings.Contains(b.String(), want) {
		t.Errorf("text lacks %q:\n%s", want, b.String())
	}
}

// A cell of one run says that it judged one seed, which is no rate.
func TestOneSeedSaysSo(t *testing.T) {
	for _, n := range []int{1, 2} {
		cells := smallGrid(t, Seeds{Start: 1, Count: n})[:1]
		rep, err := Run(context.Background(), cells, Options{Parallel: 1, Run: fencedRun})
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if err := rep.WriteText(&b); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "judged one run only, which is no rate"); got != (n == 1) {
			t.Errorf("%d seeds: says one seed %v, want %v:\n%s", n, got, n == 1, b.String())
		}
	}
}

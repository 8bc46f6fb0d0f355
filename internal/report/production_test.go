package report

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/locksim/locksim/sim"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// tinyProduction measures basic, fenced and a broken variant of fenced
// under the named production scenarios, seeds seeds each.
func tinyProduction(t *testing.T, seeds, workers int, names ...string) *Measurements {
	t.Helper()
	var cfg Config
	for _, name := range []string{"basic", "fenced", "fenced-volatile"} {
		p, err := pattern.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Patterns = append(cfg.Patterns, p)
	}
	scs, err := ProductionBuiltins(names)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Scenarios, cfg.Seeds, cfg.Workers = scs, seeds, workers
	pm, err := MeasureProduction(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return pm
}

var (
	everyOnce sync.Once
	everyPM   *Measurements
	everyErr  error
)

// everyProduction is basic under every production scenario, one seed.
func everyProduction(t *testing.T) *Measurements {
	t.Helper()
	everyOnce.Do(func() {
		p, err := pattern.Lookup("basic")
		if err != nil {
			everyErr = err
			return
		}
		everyPM, everyErr = MeasureProduction(context.Background(), Config{Seeds: 1, Patterns: []pattern.Pattern{p}})
	})
	if everyErr != nil {
		t.Fatal(everyErr)
	}
	return everyPM
}

func productionMarkdown(t *testing.T, pm *Measurements) string {
	t.Helper()
	d := &Document{}
	production(d, pm)
	var b strings.Builder
	if err := WriteMarkdown(&b, d); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestProductionListsEveryFaultKind: every fault kind of the simulator is
// measured by the report, under a built-in scenario or in the production
// section, and the section shows each fault kind, trigger and workload
// step that no built-in scenario has, as the scenario files write them.
func TestProductionListsEveryFaultKind(t *testing.T) {
	md := productionMarkdown(t, everyProduction(t))
	builtin := map[fault.Kind]bool{}
	for _, b := range scenario.Builtins() {
		for _, f := range b.Make(1).Faults {
			builtin[f.Kind] = true
		}
	}
	for _, k := range fault.Kinds {
		if !builtin[k.Kind] && !strings.Contains(md, "`"+string(k.Kind)+" ") {
			t.Errorf("fault kind %s is in no built-in scenario and not in the production section", k.Kind)
		}
	}
	for what, want := range map[string]string{
		"a fault schedule (nemesis)":      "every=exp(",
		"split brain":                     "`splitbrain ",
		"a black-holed link":              "`blackhole ",
		"a starved watchdog":              "`starve ",
		"the fsync window":                "persist=everysec",
		"a replica chain":                 "replicas delay=50ms n=2",
		"a replica lag distribution":      "replicas delay=exp(",
		"WAIT for replicas":               "wait-replicas=1",
		"the N-th attempt trigger":        "on=c1:acquire-attempt n=2",
		"a request-sent trigger":          "on=c1:acquire-sent",
		"a reply-received trigger":        "on=acquire-reply",
		"a renewal trigger":               "on=c1:renew-sent",
		"an offset from a point":          "after=2ms",
		"the manual-extend workload step": "extend-every=",
		"the misuse workload step":        "misuse=yes",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the production section does not show %s (%q)", what, want)
		}
	}
	for _, name := range ProductionScenarios {
		if !strings.Contains(md, "### "+name+"\n") {
			t.Errorf("the production section has no table for %s", name)
		}
	}
}

// TestProductionNumbersComeFromTheMeasurements: every figure of a row is
// the cell's, and changing a measurement by hand changes the text.
func TestProductionNumbersComeFromTheMeasurements(t *testing.T) {
	pm := tinyProduction(t, 4, 0, "starved-watchdog", "fsync-everysec")
	c := pm.Cell("fenced", "fsync-everysec")
	if c == nil || c.Seeds != 2 || c.Violating == 0 || c.Violations == 0 {
		t.Fatalf("fenced under fsync-everysec: cell %+v, want 2 seeds (a 3s scenario) and violations (the fsync window loses fence tokens)", c)
	}
	md := productionMarkdown(t, pm)
	if want := row(c, "fenced"); !strings.Contains(md, want) {
		t.Errorf("the section lacks fenced's row %q:\n%s", want, md)
	}
	c.Violating, c.Violated, c.Violations, c.Acquisitions, c.SimTime = 1, []string{"fencing"}, 7200, 3600, time.Hour
	c.Kinds = [numKinds]KindTally{Safety: {Violating: 1, Violated: []string{"fencing"}, Violations: 7200}}
	changed := productionMarkdown(t, pm)
	if want := "| fenced | **1/2 (50%, 9.5–91%)** | safety: fencing | 7200 | 7.2k | 2M | " + rateMark(0, 2) + " | " + rateMark(0, 2) + " | 3600 in 1h0m0s |"; !strings.Contains(changed, want) {
		t.Errorf("after the cell was changed by hand the section lacks %q:\n%s", want, changed)
	}
	if changed == md {
		t.Error("the section did not change with its measurement")
	}
}

// row is the start of a cell's row in its scenario's table: the safety
// columns, then promptness and liveness apart.
func row(c *Cell, name string) string {
	sf := c.Kinds[Safety]
	kind := func(k ClaimKind) string {
		if c.Kinds[k].Violating > 0 {
			return "**" + rateMark(c.Kinds[k].Violating, c.Seeds) + "**"
		}
		return rateMark(0, c.Seeds)
	}
	return fmt.Sprintf("| %s | **%s** | %s | %d | %s | %s | %s | %s | %d in %v |", name, rateMark(sf.Violating, c.Seeds), kindsBroken(c),
		sf.Violations, compact(sim.PerSimHour(sf.Violations, c.SimTime)), compact(sim.PerMillionAcquisitions(sf.Violations, c.Acquisitions)),
		kind(Promptness), kind(Liveness), c.Acquisitions, c.SimTime)
}

// TestProductionRefusedOptions: a pattern that cannot wait for replicas
// is not run under a WAIT scenario, and the section says why.
func TestProductionRefusedOptions(t *testing.T) {
	p, err := pattern.Lookup("redlock")
	if err != nil {
		t.Fatal(err)
	}
	scs, err := ProductionBuiltins([]string{"failover-lag-slow-wait"})
	if err != nil {
		t.Fatal(err)
	}
	pm, err := MeasureProduction(context.Background(), Config{Seeds: 2, Patterns: []pattern.Pattern{p}, Scenarios: scs})
	if err != nil {
		t.Fatal(err)
	}
	c := pm.Cells[0][0]
	if !strings.Contains(c.Refused, "WaitReplicas (1) is not supported by Redlock") || c.Seeds != 0 {
		t.Errorf("redlock under failover-lag-slow-wait: Refused %q after %d seeds, want the option error and no seed", c.Refused, c.Seeds)
	}
	md := productionMarkdown(t, pm)
	if !strings.Contains(md, "Not run, refusing the scenario's options: redlock (e.g. redlock: locks: WaitReplicas (1) is not supported by Redlock") ||
		!strings.Contains(md, "| [failover-lag-slow-wait](#failover-lag-slow-wait) | refused |") || strings.Contains(md, "\n| redlock | ") {
		t.Errorf("the section does not say that redlock refused the scenario:\n%s", md)
	}
	if _, err := Measure(context.Background(), Config{Seeds: 1, BaselineSeeds: 1, Patterns: []pattern.Pattern{p}, Scenarios: scs}); err == nil {
		t.Error("Measure (the built-in grid) accepted a refused run; only the production grid marks them")
	}
}

// TestProductionSeeds: longer scenarios run half the seeds, at least one.
func TestProductionSeeds(t *testing.T) {
	for _, c := range []struct {
		seeds int
		d     time.Duration
		want  int
	}{{20, time.Second, 20}, {20, 3 * time.Second, 10}, {20, 10 * time.Second, 10}, {1, 10 * time.Second, 1}, {3, 500 * time.Millisecond, 3}} {
		if got := ProductionSeeds(c.seeds, c.d); got != c.want {
			t.Errorf("ProductionSeeds(%d, %v) = %d, want %d", c.seeds, c.d, got, c.want)
		}
	}
	pm := tinyProduction(t, 4, 0, "gc-storm", "misuse")
	if want := 3 * (2 + 4); pm.Runs != want { // fenced and fenced-volatile run once: the store checks their tokens
		t.Errorf("Runs = %d, want %d (no run without tokens)", pm.Runs, want)
	}
	for j, s := range pm.Scenarios {
		want := ProductionSeeds(4, s.Duration)
		for i := range pm.Patterns {
			if c := pm.Cells[i][j]; s.Seeds != want || c.Seeds != want {
				t.Errorf("%s under %s: %d seeds run, scenario of %d, want %d", c.Pattern, s.Name, c.Seeds, s.Seeds, want)
			}
		}
	}
}

func TestCompact(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 0.5234: "0.523", 2.5: "2.5", 36: "36", 468: "468", 2662.6: "2.66k", 7200: "7.2k", 875000: "875k", 2191510: "2.19M"} {
		if got := compact(v); got != want {
			t.Errorf("compact(%v) = %q, want %q", v, got, want)
		}
	}
}

// TestClaimRatesBesideTheSafetyGrid: the rates table of the built-in
// scenarios shows each correct cell's own rates.
func TestClaimRatesBesideTheSafetyGrid(t *testing.T) {
	m := sharedTiny(t)
	d := &Document{}
	claimRates(d, m)
	var b strings.Builder
	if err := WriteMarkdown(&b, d); err != nil {
		t.Fatal(err)
	}
	c := m.Cell("basic", "gc-pause")
	if c.Violations == 0 {
		t.Fatalf("basic under gc-pause: no violation counted in %d violating seeds", c.Violating)
	}
	want := fmt.Sprintf("%s/h, %s/M", compact(float64(c.Violations)/c.SimTime.Hours()), compact(float64(c.Violations)*1e6/float64(c.Acquisitions)))
	if !strings.Contains(b.String(), "| basic | **"+want) {
		t.Errorf("the rates table lacks basic's gc-pause rates %q:\n%s", want, b.String())
	}
	if strings.Contains(b.String(), "basic-del") {
		t.Error("the rates table shows a broken variant; it is the correct patterns' table")
	}
	// fenced claims no mutex: its overlaps are in no rate, and labelled.
	f := m.Cell("fenced", "gc-pause")
	if f.Violations != 0 || f.Unclaimed == 0 {
		t.Fatalf("fenced under gc-pause: %d claim violations, %d unclaimed; want 0 and the overlaps", f.Violations, f.Unclaimed)
	}
	want = fmt.Sprintf("| 0 (not claimed: %s/h)", compact(float64(f.Unclaimed)/f.SimTime.Hours()))
	if !strings.Contains(b.String(), want) {
		t.Errorf("the rates table lacks fenced's unclaimed overlaps %q:\n%s", want, b.String())
	}
}

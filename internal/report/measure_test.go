package report

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// tinyConfig is a report small enough for a test: a lock without tokens,
// the fenced lock and a broken variant, under two fault scenarios.
func tinyConfig(t *testing.T, seeds, workers int) Config {
	t.Helper()
	var cfg Config
	for _, name := range []string{"basic", "fenced", "basic-del"} {
		p, err := pattern.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Patterns = append(cfg.Patterns, p)
	}
	for _, b := range scenario.Builtins() {
		if b.Name == "gc-pause" || b.Name == "wrong-owner-release" {
			cfg.Scenarios = append(cfg.Scenarios, b)
		}
	}
	cfg.Seeds, cfg.Workers = seeds, workers
	return cfg
}

var (
	sharedOnce sync.Once
	sharedM    *Measurements
	sharedErr  error
)

// sharedTiny is one tiny measurement (2 seeds) for the tests that only
// read it and write reports from it, made once.
func sharedTiny(t *testing.T) *Measurements {
	t.Helper()
	sharedOnce.Do(func() { sharedM, sharedErr = Measure(context.Background(), tinyConfig(t, 2, 0)) })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return sharedM
}

func tinyMeasure(t *testing.T, seeds, workers int) *Measurements {
	t.Helper()
	m, err := Measure(context.Background(), tinyConfig(t, seeds, workers))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMeasureAggregates checks every cell against the runs made directly
// with sim.Run, seed by seed.
func TestMeasureAggregates(t *testing.T) {
	cfg := tinyConfig(t, 3, 4)
	m, err := Measure(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := 3*2*3 + 2*3; m.Runs != want { // fenced also runs without tokens
		t.Errorf("Runs = %d, want %d", m.Runs, want)
	}
	for i, p := range cfg.Patterns {
		for j, b := range cfg.Scenarios {
			sc, err := b.Scenario(p.Nodes)
			if err != nil {
				t.Fatal(err)
			}
			var want Cell
			for seed := uint64(1); seed <= 3; seed++ {
				res, err := sim.Run(sim.Config{Pattern: p, Scenario: sc, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				want.add(res, false)
			}
			want.finish()
			got := m.Cells[i][j]
			if got.Seeds != 3 || got.Violating != want.Violating || got.FirstSeed != want.FirstSeed || got.Lost != want.Lost ||
				got.LostRuns != want.LostRuns || got.Acquisitions != want.Acquisitions || got.P99Wait != want.P99Wait ||
				got.Violations != want.Violations || got.Unfired != want.Unfired ||
				strings.Join(got.Violated, ",") != strings.Join(want.Violated, ",") {
				t.Errorf("%s under %s: cell %+v, want the sum of the runs %+v", p.Name, b.Name, *got, want)
			}
			if (got.first != nil) != (got.Violating > 0) {
				t.Errorf("%s under %s: first violating history kept = %v with %d violating seeds", p.Name, b.Name, got.first != nil, got.Violating)
			}
		}
	}
}

// TestWithoutTokens checks that withholding the tokens changes what the
// store checks and nothing else: under gc-pause the fenced lock's stale
// holder is rejected with its tokens and overwrites the counter without.
func TestWithoutTokens(t *testing.T) {
	m := sharedTiny(t)
	c := m.Cell("fenced", "gc-pause")
	if c == nil || c.NoFence == nil {
		t.Fatalf("fenced under gc-pause: cell %+v, want one measured without tokens", c)
	}
	if c.Rejected == 0 || c.NoFence.Total <= c.Lost {
		t.Errorf("fenced under gc-pause: %d stale writes rejected, %d lost updates with tokens, %d without; want rejections and more losses without",
			c.Rejected, c.Lost, c.NoFence.Total)
	}
	if b := m.Cell("basic", "gc-pause"); b.NoFence != nil {
		t.Errorf("basic issues no tokens, yet was measured without them: %+v", b.NoFence)
	}
}

func TestConfigErrorsNameTheField(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Seeds: -1}, "Seeds (-1)"},
		{Config{Seeds: 1, BaselineSeeds: -2}, "BaselineSeeds (-2)"},
		{Config{Seeds: 1, Workers: -1}, "Workers (-1)"},
	} {
		if _, err := Measure(context.Background(), c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Measure(%+v) = %v, want an error naming %s", c.cfg, err, c.want)
		}
	}
}

// TestPlanPutsTheBaselineFirst checks the plan's order and that patterns
// with tokens run twice.
func TestPlanPutsTheBaselineFirst(t *testing.T) {
	m := &Measurements{
		Patterns:  []PatternInfo{{Name: "a"}, {Name: "t", Tokens: true}},
		Scenarios: []ScenarioInfo{{Name: "f", Seeds: 2}, {Name: Baseline, Seeds: 1}},
	}
	var got []string
	for _, j := range m.plan() {
		got = append(got, m.Patterns[j.pi].Name+"/"+m.Scenarios[j.si].Name+"/"+map[bool]string{false: "t", true: "n"}[j.noFence])
	}
	want := "a/steady/t t/steady/t t/steady/n a/f/t a/f/t t/f/t t/f/n t/f/t t/f/n"
	if strings.Join(got, " ") != want {
		t.Errorf("plan = %s\nwant   %s", strings.Join(got, " "), want)
	}
}

// TestSharedHoldersFromTheRegistry: the read-write family is what the
// registry marks Shared, and SharedHolders follows the pattern's own
// record (a pattern marked Shared needs no list edited to count).
func TestSharedHoldersFromTheRegistry(t *testing.T) {
	if got, want := ReadWrite(), []string{"rwlock", "rwlock-read-mostly", "rwlock-shared-count"}; !slices.Equal(got, want) {
		t.Errorf("ReadWrite() = %v, want %v", got, want)
	}
	for _, name := range ReadWrite() {
		if p, _ := pattern.Lookup(name); !SharedHolders(p) {
			t.Errorf("SharedHolders(%s) = false", name)
		}
	}
	if !SharedHolders(pattern.Pattern{Name: "unlisted-rw", Shared: true}) {
		t.Error("SharedHolders of a pattern marked Shared = false, want true: the registry's record decides")
	}
	for _, name := range []string{"basic", "fenced", "rwlock-write"} {
		if p, _ := pattern.Lookup(name); SharedHolders(p) {
			t.Errorf("SharedHolders(%s) = true, want false: one holder at a time", name)
		}
	}
	if p, _ := pattern.Lookup("semaphore"); !SharedHolders(p) {
		t.Errorf("SharedHolders(semaphore) = false, want true: it claims %d holders", p.Claims.MaxHolders)
	}
}

// TestMeasureStopsWithItsContext: a Measure whose context ends stops
// starting runs and fails with the context's error; the progress callback
// is called from the caller's goroutine, once per run done.
func TestMeasureStopsWithItsContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := tinyConfig(t, 20, 1)
	var calls, total int
	cfg.OnProgress = func(done, all int) {
		calls, total = calls+1, all
		if done != calls {
			t.Errorf("OnProgress(%d, %d) on call %d, want done = %d", done, all, calls, calls)
		}
		cancel()
	}
	_, err := Measure(ctx, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Measure after cancel = %v, want context.Canceled", err)
	}
	if calls == 0 || calls >= total {
		t.Errorf("%d of %d runs done after the cancel at the first, want at least one and fewer than all", calls, total)
	}
}

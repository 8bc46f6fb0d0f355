package report

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/internal/gate"
	"github.com/locksim/locksim/sim/fault"
	"github.com/locksim/locksim/sim/scenario"
)

// The production faults: the fault kinds, triggers and workload steps
// that lock failures seen in production need beyond the built-in
// scenarios (fault schedules drawn from distributions, split brain, a
// black-holed connection, a starved watchdog, an fsync window, replica
// chains and lag distributions, WAIT for replicas, triggers on an
// acquisition's N-th attempt, on a request sent or a reply received and
// at an offset, manual extension, misuse), and a lossy link, which no
// built-in has either. The report measures every pattern under the gate's
// own scenario files that exercise them (they are data:
// internal/gate/scenarios/), each a named scenario that `locksim run`
// replays.

// ProductionScenarios names the scenarios of the production-faults
// section, in the order the report shows them: each exercises a fault
// kind, trigger or workload step that no built-in scenario has, and a
// scenario with WAIT follows its twin without (failover-async-replication's
// twin, whose original is a built-in, comes on its own).
var ProductionScenarios = []string{
	"gc-storm", "gc-storm-below-ttl",
	"failover-async-replication-wait",
	"split-brain", "split-brain-wait",
	"blackhole-renewal",
	"starved-watchdog",
	"fsync-everysec", "fsync-always",
	"failover-twice", "failover-twice-wait",
	"failover-lag-exp", "failover-lag-exp-wait",
	"failover-lag-slow", "failover-lag-slow-wait",
	"failover-mid-grant", "failover-mid-grant-wait",
	"failover-mid-retry", "failover-mid-retry-wait",
	"retry-pause",
	"paused-grant",
	"lossy-link",
	"long-work-extended",
	"misuse",
}

// ProductionBuiltins returns the scenarios named (ProductionScenarios
// when names is nil), read from the gate's files, as built-ins the report
// measures: each resolves for a pattern's node count as a built-in does.
func ProductionBuiltins(names []string) ([]scenario.Builtin, error) {
	if names == nil {
		names = ProductionScenarios
	}
	all, err := gate.Scenarios()
	if err != nil {
		return nil, fmt.Errorf("report: the gate's scenarios: %w", err)
	}
	var out []scenario.Builtin
	for _, name := range names {
		i := slices.IndexFunc(all, func(s explore.Scenario) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("report: production scenario %q is not one of the gate's (%s)", name, gate.ScenarioDir)
		}
		sc, err := all[i].Resolve(0)
		if err != nil {
			return nil, fmt.Errorf("report: scenario %s: %w", name, err)
		}
		out = append(out, scenario.Builtin{Name: sc.Name, Summary: sc.Summary, Make: func(int) scenario.Scenario { return sc }})
	}
	return out, nil
}

// ProductionSeeds is the seed count of a production scenario of simulated
// length d when the report runs seeds seeds a fault scenario: the same for
// a scenario of a simulated second or less, half as many (at least one)
// for a longer one, whose every seed simulates several times as much.
func ProductionSeeds(seeds int, d time.Duration) int {
	if d <= time.Second {
		return seeds
	}
	return max(1, seeds/2)
}

// MeasureProduction measures cfg.Patterns under the production scenarios
// (cfg.Scenarios, default ProductionBuiltins(nil)), each with
// ProductionSeeds(cfg.Seeds, its duration) seeds. Patterns that issue
// tokens run once: the store checks them (the fencing comparison is the
// built-in grid's). A pattern that refuses a scenario's options (WAIT for
// replicas on a lock that cannot wait) leaves its cell Refused.
func MeasureProduction(ctx context.Context, cfg Config) (*Measurements, error) {
	if cfg.Scenarios == nil {
		scs, err := ProductionBuiltins(nil)
		if err != nil {
			return nil, err
		}
		cfg.Scenarios = scs
	}
	cfg, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	m, scs, err := newMeasurements(cfg)
	if err != nil {
		return nil, err
	}
	m.refusable, m.fenceOnce = true, true
	for j := range m.Scenarios {
		m.Scenarios[j].Seeds = ProductionSeeds(cfg.Seeds, m.Scenarios[j].Duration)
		m.Scenarios[j].Text = directives(scs[0][j])
	}
	m.noHistory = true
	return m.run(ctx, cfg, scs)
}

// directives are the lines of sc's text that make its faults: the
// workload's misuse and manual extension when set, the pattern directive
// (WAIT), replicas, and every fault line, as a scenario file writes them.
func directives(sc scenario.Scenario) []string {
	var out []string
	w := sc.Workload
	var steps []string
	if !w.Check {
		steps = append(steps, "check=no")
	}
	if w.ExtendEvery > 0 {
		steps = append(steps, "extend-every="+w.ExtendEvery.String())
	}
	if w.Misuse {
		steps = append(steps, "misuse=yes")
	}
	if len(steps) > 0 {
		out = append(out, "workload "+strings.Join(steps, " "))
	}
	afterNet := false
	for _, line := range strings.Split(strings.TrimSpace(scenario.Format(sc)), "\n") {
		switch {
		case strings.HasPrefix(line, "pattern "):
			out = append(out, line)
		case strings.HasPrefix(line, "net "):
			afterNet = true
		case afterNet:
			out = append(out, line)
		}
	}
	return out
}

// drawn reports whether some fault of sc is a schedule.
func drawn(sc scenario.Scenario) bool {
	return slices.ContainsFunc(sc.Faults, func(f fault.Fault) bool { return f.IsSchedule() })
}

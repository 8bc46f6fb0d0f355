package cli

import (
	"errors"
	"fmt"
	"sync"

	"github.com/locksim/locksim/internal/gate"
	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/realmode"
	"github.com/locksim/locksim/sim"
	"github.com/locksim/locksim/sim/scenario"
)

// Lock settings a pattern refuses — a TTL that leaves no validity, a node
// count it cannot use, a pattern-line option its constructor turns down
// with a *locks.OptionError — are bad usage (exit 2), found before any
// run by building the lock once as a run would (realmode.CheckBuild).

// refusedSettings is a usage error naming input (the flag and its value)
// when p's constructor refuses the lock settings of sc, or nil.
func refusedSettings(input string, p pattern.Pattern, sc scenario.Scenario) error {
	if err := realmode.CheckBuild(p, sc); err != nil {
		return usageError{fmt.Errorf("%s: %w", input, err)}
	}
	return nil
}

// settingsGuard runs simulations for a caller that cannot list its cells
// before they run (the gate reads its scenario files itself): it keeps
// the first run, in (pattern, scenario, seed) order, that failed because
// its lock settings are refused.
type settingsGuard struct {
	mu       sync.Mutex
	refused  error
	pattern  string
	scenario string
	seed     uint64
}

// run is sim.Run; a failed run whose lock does not build is remembered.
func (g *settingsGuard) run(cfg sim.Config) (*sim.Result, error) {
	res, err := sim.Run(cfg)
	if err == nil {
		return res, nil
	}
	if rerr := realmode.CheckBuild(cfg.Pattern, cfg.Scenario); rerr != nil {
		g.keep(cfg, rerr)
	}
	return res, err
}

// keep records rerr for cfg's run if it comes first.
func (g *settingsGuard) keep(cfg sim.Config, rerr error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	p, s := cfg.Pattern.Name, cfg.Scenario.Name
	if g.refused != nil && (g.pattern < p || g.pattern == p && (g.scenario < s || g.scenario == s && g.seed <= cfg.Seed)) {
		return
	}
	g.refused, g.pattern, g.scenario, g.seed = rerr, p, s, cfg.Seed
}

// err is the usage error of the refused settings found, naming the line
// of m that asked for them, or nil.
func (g *settingsGuard) err(m *gate.Matrix) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.refused == nil {
		return nil
	}
	return usageError{fmt.Errorf("%s: %s under %s: %w", refusedLine(m, g.pattern, g.scenario), g.pattern, g.scenario, g.refused)}
}

// refusedLine names the first line of m that runs pattern under
// scenario: file:line.
func refusedLine(m *gate.Matrix, pattern, scenario string) string {
	for _, e := range m.Expect {
		if e.Pattern == pattern && e.Scenario == scenario && e.Verdict != gate.May {
			return fmt.Sprintf("--expect %s:%d", m.Source, e.Line)
		}
	}
	return "--expect " + m.Source
}

// isRefused reports whether err is a refusal of lock settings.
func isRefused(err error) bool { return errors.Is(err, realmode.ErrRefused) }

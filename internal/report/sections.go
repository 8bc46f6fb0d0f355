package report

import (
	"fmt"
	"strings"
)

// replay is the command that re-runs a cell's first violating seed.
func replay(c *Cell) string {
	return fmt.Sprintf("locksim run --pattern %s --scenario %s --seed %d", c.Pattern, c.Scenario, c.FirstSeed)
}

// counterpart returns the index of the correct pattern a broken variant
// imitates: by the catalog's naming, the longest correct pattern name that
// prefixes the variant's followed by "-" (basic-del → basic); -1 if none.
func (m *Measurements) counterpart(i int) int {
	best := -1
	for j, p := range m.Patterns {
		if !p.Broken && strings.HasPrefix(m.Patterns[i].Name, p.Name+"-") && (best < 0 || len(p.Name) > len(m.Patterns[best].Name)) {
			best = j
		}
	}
	return best
}

func broken(d *Document, m *Measurements, opt Options) {
	rows := m.patternRows(true)
	if len(rows) == 0 {
		return
	}
	d.heading(2, "broken", "Broken variants: is each one caught?")
	d.para(text("The mistakes of the seed articles, each kept as a variant that claims what the correct pattern claims. A gate is only worth something if it can fail: each variant must break its claims somewhere. "),
		text("Where the correct pattern it imitates is clean under the same scenario, the fault shows the variant's own mistake rather than a limit both share."))
	d.add(rateTable(m, rows))
	plotImage(d, opt, PlotViolationsBroken, "violation rate of the broken variants")
	var items List
	for _, i := range rows {
		items = append(items, caughtItem(m, i))
	}
	d.add(items)
}

// caughtItem says where a broken variant was caught, and where only it was.
func caughtItem(m *Measurements, i int) []Span {
	p := m.Patterns[i]
	s := []Span{bold("%s", p.Name), text(" (%s): ", p.Pitfall)}
	var first *Cell
	var caught, alone []string
	cp := m.counterpart(i)
	for j, c := range m.Cells[i] {
		if c.Violating == 0 {
			continue
		}
		caught = append(caught, m.Scenarios[j].Name)
		if first == nil {
			first = c
		}
		if cp >= 0 && m.Cells[cp][j].Violating == 0 {
			alone = append(alone, m.Scenarios[j].Name)
		}
	}
	if first == nil {
		return append(s, bold("NOT CAUGHT"), text(" by any built-in scenario in %s.", seedsText(m.Seeds)))
	}
	s = append(s, text("caught under %d of %d scenarios (%s). First: %s, seed %d, ", len(caught), len(m.Scenarios), strings.Join(caught, ", "), first.Scenario, first.FirstSeed),
		code(replay(first)))
	if first.Viz != "" {
		s = append(s, text(" ("), link("counterexample", first.Viz), text(", checker: %s)", first.VizVerdict))
	}
	switch {
	case cp < 0:
		s = append(s, text("."))
	case len(alone) == 0:
		s = append(s, text(". %s breaks its claims under each of these too.", m.Patterns[cp].Name))
	default:
		s = append(s, text(". %s is clean under %s.", m.Patterns[cp].Name, strings.Join(alone, ", ")))
	}
	return s
}

func counterexamples(d *Document, m *Measurements) {
	t := Table{Header: []string{"pattern", "scenario", "violating", "claims broken", "first seed", "checker", "replay"}}
	for _, row := range m.Cells {
		for _, c := range row {
			if c.Violating == 0 {
				continue
			}
			first := plain("%d", c.FirstSeed)
			if c.Viz != "" {
				first = cell(Plain, link(fmt.Sprintf("seed %d", c.FirstSeed), c.Viz))
			}
			t.Rows = append(t.Rows, []TCell{plain("%s", c.Pattern), plain("%s", c.Scenario), plain("%d/%d", c.Violating, c.Seeds),
				plain("%s", strings.Join(c.Violated, ", ")), first, plain("%s", c.VizVerdict), cell(Plain, code(replay(c)))})
		}
	}
	d.heading(2, "counterexamples", "Counterexamples")
	if len(t.Rows) == 0 {
		d.para(text("No run broke a claim."))
		return
	}
	d.para(text("Every cell with a violation, its first violating seed, porcupine's visualisation of that run's history (counter and register models, faults on the timeline) and the checker's verdict on it. "),
		text("The checker judges the data, not the lock: an overlap in which the stale holder did not overwrite anyone (it saw its lease lost, or the store rejected its token) is a Mutex violation with a linearizable history (\"ok\"). "),
		text("The simulator's own verdict and trace come from the replay command."))
	d.add(t)
}

func method(d *Document, m *Measurements) {
	d.heading(2, "method", "Method")
	d.para(text("Each run simulates the real lock code (package locks) in the deterministic simulator: clients loop acquire → read the protected counter → work → check the lease → write counter+1 → release, while the scenario injects its faults. "),
		text("The oracles judge true time: overlaps of critical sections, lost updates at the store, fence monotonicity, acquisitions, waits and stuck clients. "),
		text("Counts are exact over seeds 1..N; as rates they are estimates of how often the fault breaks the pattern, so each carries its 95%% Wilson interval, and a 0/N cell says no seed in N broke the claim, not that none can. "),
		text("%s", intervalNote()))
	t := Table{Header: []string{"scenario", "seeds", "simulated", "what happens"}}
	for _, s := range m.Scenarios {
		t.Rows = append(t.Rows, []TCell{plain("%s", s.Name), plain("%d", s.Seeds), plain("%v", s.Duration), plain("%s", s.Summary)})
	}
	d.add(t)
	p := Table{Header: []string{"pattern", "claims", "what it is"}}
	for _, i := range append(m.patternRows(false), m.patternRows(true)...) {
		pi := m.Patterns[i]
		what := pi.Summary
		if pi.Broken {
			what = "broken: " + pi.Pitfall
		}
		p.Rows = append(p.Rows, []TCell{plain("%s", pi.Name), plain("%s", claimText(pi.Claims)), plain("%s", what)})
	}
	d.add(p)
}

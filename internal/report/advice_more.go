package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/bench"
)

// adviseShared reminds that the patterns letting several clients hold at
// once lose updates in a workload where every holder writes.
func adviseShared(m *Measurements) List {
	var parts []string
	for i, p := range m.Patterns {
		if p.Broken || !p.Shared {
			continue
		}
		runs, total := 0, 0
		for _, c := range m.Cells[i] {
			runs, total = runs+c.LostRuns, total+c.Seeds
		}
		parts = append(parts, fmt.Sprintf("%s in %d of %d runs", p.Name, runs, total))
	}
	if len(parts) == 0 {
		return nil
	}
	return List{{text("Patterns that let several clients hold at once (readers, permits) are for work that tolerates it: in this workload every holder writes the counter, and updates were lost with %s, without a broken claim (the tables mark such cells yellow).",
		strings.Join(parts, ", "))}}
}

// adviseLiveness compares the baseline's rates and waits, and names the
// cells in which a client was stuck in every seed.
func adviseLiveness(m *Measurements) List {
	var out List
	if j := m.scenarioIndex(Baseline); j >= 0 && len(m.exclusive()) > 1 {
		ex := m.exclusive()
		rate := func(i int) int { return int(m.Cells[i][j].AcqPerSec() * 10) }
		wait := func(i int) int { return int(m.Cells[i][j].P99Wait) }
		r, w := ranked(ex, rate), ranked(ex, wait)
		lo, hi := m.Cells[r[0]][j], m.Cells[r[len(r)-1]][j]
		wlo, whi := m.Cells[w[0]][j], m.Cells[w[len(w)-1]][j]
		out = append(out, []Span{text("Without faults (%s, %s), acquisitions per simulated second range from %.1f (%s) to %.1f (%s), and the p99 acquire wait from %s ms (%s) to %s ms (%s).",
			Baseline, seedsText(m.BaselineSeeds), lo.AcqPerSec(), lo.Pattern, hi.AcqPerSec(), hi.Pattern, ms(wlo.P99Wait), wlo.Pattern, ms(whi.P99Wait), whi.Pattern)})
	}
	var stuck []string
	for _, i := range m.exclusive() {
		for _, c := range m.Cells[i] {
			if c.Seeds > 0 && c.StuckRuns == c.Seeds {
				stuck = append(stuck, fmt.Sprintf("%s under %s", c.Pattern, c.Scenario))
			}
		}
	}
	if len(stuck) > 0 {
		out = append(out, []Span{text("A client was stuck (no acquisition in the run's last stretch) in every seed of: %s. Such a pattern stays safe there by giving up progress.", strings.Join(stuck, ", "))})
	}
	return out
}

// adviseBroken states whether every broken variant broke its claims.
func adviseBroken(m *Measurements) List {
	var caught, missed []string
	for _, i := range m.patternRows(true) {
		v := 0
		for _, c := range m.Cells[i] {
			v += btoi(c.Violating > 0)
		}
		if v == 0 {
			missed = append(missed, m.Patterns[i].Name)
		} else {
			caught = append(caught, fmt.Sprintf("%s %d", m.Patterns[i].Name, v))
		}
	}
	switch {
	case len(caught)+len(missed) == 0:
		return nil
	case len(missed) == 0:
		return List{{text("Every broken variant broke its claims under at least one scenario (scenarios that caught each: %s), so the checks can fail: see ", strings.Join(caught, ", ")),
			link("Broken variants", "#broken"), text(".")}}
	}
	return List{{bold("Not caught"), text(" by any scenario in %s: %s. The checks cannot vouch for what they never saw fail.", seedsText(m.Seeds), strings.Join(missed, ", "))}}
}

// adviseCost prices the patterns from the benchmark: the cheapest and the
// dearest single-node pattern relative to the floor, at the lowest client
// count and the first key mode, and the data-safety choice's cost.
func adviseCost(m *Measurements, b *Bench) List {
	var rows []bench.Row
	for _, r := range b.Rows {
		if r.Family == bench.Single && r.Kind == bench.KindPattern {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	_, clients := subjects(rows)
	var at []bench.Row
	for _, r := range rows {
		if r.Clients == clients[0] && r.Keys == rows[0].Keys {
			at = append(at, r)
		}
	}
	slices.SortStableFunc(at, func(x, y bench.Row) int { return cmpFloat(y.RatioFloor, x.RatioFloor) })
	lo, hi := at[0], at[len(at)-1]
	s := []Span{text("Cost, from the benchmark (%s, %s; %s, %s): the cheapest pattern is %s at %.2f× the floor's throughput (%.0f cycles/s), the dearest %s at %.2f× (%.0f cycles/s).",
		b.label(), b.date(), clientsText(clients[0]), keyText(rows[0].Keys), lo.Subject, lo.RatioFloor, lo.CyclesPerSec, hi.Subject, hi.RatioFloor, hi.CyclesPerSec)}
	if best := bestData(m); best >= 0 {
		for _, r := range at {
			if r.Subject == m.Patterns[best].Name && r.Subject != lo.Subject {
				s = append(s, text(" %s, the data-safety choice above, runs at %.2f× the floor (%.0f cycles/s).", r.Subject, r.RatioFloor, r.CyclesPerSec))
			}
		}
	}
	return List{s}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

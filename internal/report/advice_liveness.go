package report

import (
	"fmt"
	"slices"
	"strings"
)

// adviseLiveness compares the baseline's rates and waits, names the cells
// with stuck clients, and prices a hot key from the benchmark.
func adviseLiveness(m *Measurements) List {
	var out List
	if j := m.scenarioIndex(Baseline); j >= 0 && len(m.exclusive()) > 1 {
		ex := m.exclusive()
		rate := func(i int) int { return int(m.Cells[i][j].AcqPerSec() * 10) }
		wait := func(i int) int { return int(m.Cells[i][j].P99Wait) }
		r, w := ranked(ex, rate), ranked(ex, wait)
		lo, hi := m.Cells[r[0]][j], m.Cells[r[len(r)-1]][j]
		wlo, whi := m.Cells[w[0]][j], m.Cells[w[len(w)-1]][j]
		out = append(out, []Span{text("Liveness without faults (%s, clients contending for one lock, %s): acquisitions per simulated second range from %.1f (%s) to %.1f (%s), and the p99 acquire wait (median over seeds) from %s ms (%s) to %s ms (%s).",
			Baseline, seedsText(m.BaselineSeeds), lo.AcqPerSec(), lo.Pattern, hi.AcqPerSec(), hi.Pattern, ms(wlo.P99Wait), wlo.Pattern, ms(whi.P99Wait), whi.Pattern)})
	}
	if s := stuckText(m); s != "" {
		out = append(out, []Span{text("%s", s)})
	}
	return out
}

// stuckText names, scenario by scenario, the exclusive patterns with a
// stuck client (no acquisition in the run's last stretch) in some seed,
// most first: a pattern can stay safe by giving up progress.
func stuckText(m *Measurements) string {
	var parts []string
	for _, j := range m.faults() {
		var rs []rated
		for _, i := range m.exclusive() {
			if c := m.Cells[i][j]; c.StuckRuns > 0 {
				rs = append(rs, rated{c.Pattern, c.StuckRuns, c.Seeds})
			}
		}
		slices.SortStableFunc(rs, func(a, b rated) int { return b.k - a.k })
		if len(rs) > 0 {
			parts = append(parts, fmt.Sprintf("under %s, %s", m.Scenarios[j].Name, joinRated(rs)))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Stuck clients (a client that acquired nothing in the run's last stretch: safe, but not live): " + strings.Join(parts, "; ") + ". Where a pattern is clean but stuck, its safety there was bought with progress."
}

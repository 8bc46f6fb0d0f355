package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// adviseShared judges the patterns that let several clients hold at once
// by what they claim — a semaphore's holder limit, a read-write lock's
// exclusion of writers — and explains why their lost updates are no
// verdict: in the simulated workload every holder, reader and permit
// holder included, writes the protected counter.
func adviseShared(m *Measurements) List {
	var out List
	for i, p := range m.Patterns {
		if p.Broken || !p.Shared {
			continue
		}
		k, n, lost := 0, 0, 0
		for _, j := range m.faults() {
			c := m.Cells[i][j]
			k, n, lost = k+c.Violating, n+c.Seeds, lost+c.LostRuns
		}
		claim := claimText(p.Claims)
		if p.Claims.Has(pattern.ClaimMutex) {
			claim = "mutex (no writer beside any other holder; readers share)"
		}
		out = append(out, []Span{bold("%s", p.Name), text(" is judged by its claim, %s: broken in %s of its fault-scenario runs. ", claim, rateMark(k, n)),
			text("Its lost updates (%s) are no verdict: every holder in this workload writes the counter, readers and permit holders too, so holders that share by design overwrite each other. Use it where holders only read, or each writes what is its own.",
				rateMark(lost, n))})
	}
	return out
}

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

package report

import (
	"fmt"
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
			k, n, lost = k+c.Kinds[Safety].Violating, n+c.Seeds, lost+c.LostRuns
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

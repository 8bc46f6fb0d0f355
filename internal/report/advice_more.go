package report

import (
	"fmt"
	"strings"
)

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

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

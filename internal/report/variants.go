package report

import "strings"

// The broken variants' section: each variant's violation rates, and where
// it was caught, beside the correct pattern it imitates.

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

// brokenSection writes the section on the broken variants: their rate grid, and
// per variant where it was caught.
func brokenSection(d *Document, m *Measurements, opt Options) {
	rows := m.patternRows(true)
	if len(rows) == 0 {
		return
	}
	d.heading(2, "broken", "Broken variants: is each one caught?")
	d.para(text("The mistakes of the seed articles, each kept as a variant that claims what the correct pattern claims. A gate is only worth something if it can fail: each variant must break its claims somewhere. "),
		text("Where the correct pattern it imitates is clean under the same scenario, the fault shows the variant's own mistake rather than a limit both share."))
	d.para(text("The grid counts safety claims; a variant whose mistake shows only as a late loss signal or a stall is caught by that kind, which the list below names per scenario."))
	d.add(rateTable(m, rows, Safety))
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
		var kinds []string
		shared := true
		for _, k := range Kinds {
			if c.Kinds[k].Violating > 0 {
				kinds = append(kinds, k.String())
				shared = shared && cp >= 0 && m.Cells[cp][j].Kinds[k].Violating > 0
			}
		}
		caught = append(caught, m.Scenarios[j].Name+": "+strings.Join(kinds, ", "))
		if first == nil {
			first = c
		}
		if cp >= 0 && !shared {
			alone = append(alone, m.Scenarios[j].Name)
		}
	}
	if first == nil {
		return append(s, bold("NOT CAUGHT"), text(" by any built-in scenario in %s.", seedsText(m.Seeds)))
	}
	s = append(s, text("caught under %d of %d scenarios (%s). First: %s, seed %d, ", len(caught), len(m.Scenarios), strings.Join(caught, "; "), first.Scenario, first.FirstSeed),
		code(replay(first)))
	if first.Viz != "" {
		s = append(s, text(" ("), link("counterexample", first.Viz), text(", checker: %s)", first.VizVerdict))
	}
	switch {
	case cp < 0:
		s = append(s, text("."))
	case len(alone) == 0:
		s = append(s, text(". %s breaks claims of the same kinds under each of these too.", m.Patterns[cp].Name))
	default:
		s = append(s, text(". %s breaks no claim of those kinds under %s.", m.Patterns[cp].Name, strings.Join(alone, ", ")))
	}
	return s
}

package report

import (
	"math"
	"strconv"

	"github.com/locksim/locksim/sim"
)

// The rates of a cell: the violations of the pattern's claims per hour of
// simulated time and per million acquisitions, the figures a team compares
// with its own tolerance. Where the violating-seed rate says how often a
// run goes wrong, these say how often a claim is broken while the lock is
// used: one run can break it many times.

// allFired reports whether every fault of r's scenario fired in the run.
func allFired(r *sim.Result) bool {
	for _, f := range r.Faults {
		if !f.Fired {
			return false
		}
	}
	return true
}

// PerSimHour is the cell's violations per hour of simulated time (0 when
// none was simulated).
func (c *Cell) PerSimHour() float64 { return sim.PerSimHour(c.Violations, c.SimTime) }

// PerMillionAcquisitions is the cell's violations per million successful
// acquisitions (0 when there were none).
func (c *Cell) PerMillionAcquisitions() float64 {
	return sim.PerMillionAcquisitions(c.Violations, c.Acquisitions)
}

// compact formats a rate to three significant figures, thousands as k and
// millions as M: 0, 0.52, 7.2k, 875k, 2.19M.
func compact(v float64) string {
	switch {
	case v >= 1e6:
		return sig3(v/1e6) + "M"
	case v >= 1e3:
		return sig3(v/1e3) + "k"
	}
	return sig3(v)
}

// sig3 formats v ≥ 0 to three significant figures, no trailing zeros.
func sig3(v float64) string {
	if v == 0 {
		return "0"
	}
	digits := 2 - int(math.Floor(math.Log10(v)))
	s := strconv.FormatFloat(v, 'f', max(digits, 0), 64)
	if digits > 0 {
		for s[len(s)-1] == '0' {
			s = s[:len(s)-1]
		}
		if s[len(s)-1] == '.' {
			s = s[:len(s)-1]
		}
	}
	return s
}

// ratesText is a cell's two rates of kind k: "7.2k/h, 250k/M", or "0"
// for none, then the findings of the kind's claims the pattern does not
// make, which are in neither: "0 (not claimed: 7.2k/h)".
func ratesText(c *Cell, k ClaimKind) string {
	t := c.Kinds[k]
	s := "0"
	if t.Violations > 0 {
		s = compact(sim.PerSimHour(t.Violations, c.SimTime)) + "/h, " + compact(sim.PerMillionAcquisitions(t.Violations, c.Acquisitions)) + "/M"
	}
	if t.Unclaimed > 0 {
		s += " (not claimed: " + compact(sim.PerSimHour(t.Unclaimed, c.SimTime)) + "/h)"
	}
	return s
}

// claimRates follows the safety table: the same cells as rates of the
// pattern's safety claim violations.
func claimRates(d *Document, m *Measurements) {
	d.heading(3, "safety-rates", "Violations per simulated hour and per million acquisitions")
	d.para(text("The same runs as the table above, counted as violations of the pattern's safety claims (each overlapping pair of critical sections, lost update, reused token, section past the holder limit) per hour of simulated time and per million successful acquisitions ("), link("k/h and k/M rates", "#glossary"), text("), summed over the cell's seeds (0: none). Late loss signals and stalls are counted in their own tables, not here. "),
		text("What the oracles found of a safety claim the pattern does not make (the overlaps a fencing store makes harmless, the lost updates of a pattern that claims no safe store) is in neither rate: a cell shows it after \"not claimed\", per simulated hour, as locksim run and explore do. "),
		text("Each fault scenario places its fault once in a short run, so these rates compare patterns within a column; a rate per hour of operation under a fault process is the production section's (fault schedules)."))
	d.add(kindRates(m, Safety))
}

// kindRates is the grid of the correct patterns' rates of kind k.
func kindRates(m *Measurements, k ClaimKind) Table {
	t := Table{Header: m.scenarioHeader("pattern")}
	for _, i := range m.patternRows(false) {
		r := []TCell{plain("%s", m.Patterns[i].Name)}
		for _, c := range m.Cells[i] {
			if !Makes(m.Patterns[i].Claims, k) && c.Kinds[k].Unclaimed == 0 {
				r = append(r, cell(Plain, text("not claimed")))
				continue
			}
			tone := Good
			switch {
			case c.Kinds[k].Violating > 0:
				tone = Bad
			case c.Kinds[k].Unclaimed > 0:
				tone = Warn
			}
			r = append(r, cell(tone, text("%s", ratesText(c, k))))
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

package report

import (
	"math"
	"strconv"
	"time"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// The rates of a cell: the violations of the pattern's claims per hour of
// simulated time and per million acquisitions, the figures a team compares
// with its own tolerance. Where the violating-seed rate says how often a
// run goes wrong, these say how often a claim is broken while the lock is
// used: one run can break it many times.

// claimViolations counts r's findings of the claims its pattern makes: for
// mutex the overlapping pairs of sections, for safe-store the lost updates,
// for fencing the reused or decreasing tokens, for max-holders the sections
// past the limit, for progress the stalls past the bound, for loss-signal
// the losses signalled late. Findings of properties the pattern does not
// claim (the lost updates of a read-write lock's readers, who share by
// design) are left out, so that a run that broke no claim counts none.
// `locksim run` and `explore` count every finding of the oracles.
func claimViolations(r *sim.Result) int {
	n := 0
	for _, c := range r.Claims {
		switch pattern.Claim(c) {
		case pattern.ClaimMutex:
			n += r.Safety.Overlaps
		case pattern.ClaimSafeStore:
			n += r.Safety.LostUpdates
		case pattern.ClaimFencing:
			n += r.Safety.FenceViolations
		case pattern.ClaimMaxHolders:
			n += r.Safety.Excess
		case pattern.ClaimProgress:
			n += r.Liveness.Stalls
		case claimLossSignal:
			n += r.LossSignal.Late
		}
	}
	return n
}

// claimLossSignal is the name of the loss-signal claim in a result's
// claims.
const claimLossSignal = "loss-signal"

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
func (c *Cell) PerSimHour() float64 {
	if c.SimTime <= 0 {
		return 0
	}
	return float64(c.Violations) / (float64(c.SimTime) / float64(time.Hour))
}

// PerMillionAcquisitions is the cell's violations per million successful
// acquisitions (0 when there were none).
func (c *Cell) PerMillionAcquisitions() float64 {
	if c.Acquisitions == 0 {
		return 0
	}
	return float64(c.Violations) * 1e6 / float64(c.Acquisitions)
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

// ratesText is a cell's two rates: "7.2k/h, 250k/M", or "0" for none.
func ratesText(c *Cell) string {
	if c.Violations == 0 {
		return "0"
	}
	return compact(c.PerSimHour()) + "/h, " + compact(c.PerMillionAcquisitions()) + "/M"
}

// claimRates follows the safety table: the same cells as rates of the
// pattern's claim violations.
func claimRates(d *Document, m *Measurements) {
	d.heading(3, "safety-rates", "Violations per simulated hour and per million acquisitions")
	d.para(text("The same runs as the table above, counted as violations of the pattern's claims (each overlapping pair of critical sections, lost update, reused token, section past the holder limit, stall or late loss signal) per hour of simulated time (/h) and per million successful acquisitions (/M), summed over the cell's seeds (0: none); k is a thousand, M a million. "),
		text("Each fault scenario places its fault once in a short run, so these rates compare patterns within a column; a rate per hour of operation under a fault process is the production section's (fault schedules)."))
	t := Table{Header: m.scenarioHeader("pattern")}
	for _, i := range m.patternRows(false) {
		r := []TCell{plain("%s", m.Patterns[i].Name)}
		for _, c := range m.Cells[i] {
			tone := Good
			if c.Violating > 0 {
				tone = Bad
			}
			r = append(r, cell(tone, text("%s", ratesText(c))))
		}
		t.Rows = append(t.Rows, r)
	}
	d.add(t)
}

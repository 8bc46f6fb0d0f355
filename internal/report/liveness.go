package report

import (
	"fmt"
	"time"
)

// The liveness section: per pattern and scenario, acquisitions per
// simulated second and the p99 acquire wait, with the stuck clients.

// liveness writes the section: the rate and the wait tables, then the
// baseline's plots.
func liveness(d *Document, m *Measurements, opt Options) {
	d.heading(2, "liveness", "Liveness: acquisitions and waits")
	d.para(text("Acquisitions per simulated second over all seeds, and the median over seeds of each run's p99 acquire wait. "),
		text("A yellow cell had a stuck client (no acquisition in the run's last stretch) in at least one seed; the count follows. "),
		text("The fault scenarios last one simulated second with 2 clients, so their rates compare patterns within a column, not with %s (5 clients, 30 s).", Baseline))
	rate := Table{Header: m.scenarioHeader("acquisitions/s")}
	wait := Table{Header: m.scenarioHeader("p99 wait (ms)")}
	for _, i := range m.patternRows(false) {
		rr, wr := []TCell{plain("%s", m.Patterns[i].Name)}, []TCell{plain("%s", m.Patterns[i].Name)}
		for _, c := range m.Cells[i] {
			tone, stuck := Plain, ""
			if c.StuckRuns > 0 {
				tone, stuck = Warn, fmt.Sprintf(" (stuck %d/%d)", c.StuckRuns, c.Seeds)
			}
			rr = append(rr, cell(tone, text("%.1f%s", c.AcqPerSec(), stuck)))
			wr = append(wr, cell(tone, text("%s", ms(c.P99Wait))))
		}
		rate.Rows, wait.Rows = append(rate.Rows, rr), append(wait.Rows, wr)
	}
	d.add(rate, wait)
	d.para(text("The "), link("progress", "#glossary"), text(" claim, counted apart from safety and promptness: the seeds in which the lock was free and no waiting client took it within the pattern's bound, over the seeds run."))
	d.add(rateTable(m, m.patternRows(false), Liveness))
	plotImage(d, opt, PlotBaselineRate, "baseline acquisitions per simulated second")
	plotImage(d, opt, PlotBaselineWait, "baseline p99 acquire wait")
}

// ms formats a duration in milliseconds, to three significant figures.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

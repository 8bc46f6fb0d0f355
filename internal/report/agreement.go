package report

import (
	"fmt"
	"strings"
)

// Agreement is real mode's agreement table as the report shows it: the
// cells real mode wrote (locksim real --table), or why there are none.
type Agreement struct {
	// Missing says why there is no data ("" when Cells hold it).
	Missing string
	// Command is the command that made the cells, if known.
	Command string
	// NotesLink is real mode's NOTES.md relative to the report ("" if it
	// has none).
	NotesLink string
	Cells     []AgreeCell
}

// AgreeCell is one subject × scenario of real mode.
type AgreeCell struct {
	Pattern, Scenario string
	// Sim is the simulator's tally; Runs 0 for a library, which only real
	// mode can run.
	Sim, Real RealTally
	// Refused says why real mode could not run the cell ("" if it ran).
	Refused string
	// Stale says why the cell was made by other code or inputs than the
	// report's ("" when fresh): it is shown greyed with the reason and
	// never counted as agreement. Commit is the commit that made it.
	Stale, Commit string
}

// RealTally counts runs that broke a claim and runs whose clients failed.
type RealTally struct{ Runs, Violated, Failed int }

// library reports whether the cell has no simulator side.
func (c AgreeCell) library() bool { return c.Sim.Runs == 0 }

// Agree reports whether both rates are zero or both non-zero.
func (c AgreeCell) Agree() bool {
	return c.library() || (c.Sim.Violated == 0) == (c.Real.Violated == 0)
}

// realRate is the rate over the runs whose clients did not fail.
func realRate(t RealTally) string {
	s := RateText(t.Violated, t.Runs-t.Failed)
	if t.Failed > 0 {
		s += fmt.Sprintf(", %d client failure(s)", t.Failed)
	}
	return s
}

// agreement is the section of real mode's agreement table.
func agreement(d *Document, opt Options) {
	d.heading(2, "agreement", "Simulator and real redis-server: do they agree?")
	a := opt.Agreement
	switch {
	case a == nil:
		d.para(text("Not measured in this report: every rate above comes from the simulator. Real mode (real redis-server processes, real pauses, crashes, failovers and partitions) confirms them cell by cell; "),
			code("locksim report --real DIR"), text(" shows its agreement table here."))
		return
	case a.Missing != "":
		d.para(text("No agreement data: %s. ", a.Missing), code("make real"),
			text(" runs real mode's table and writes it; until then no verdict above is confirmed on real Redis."))
		return
	}
	agreementIntro(d, a)
	d.add(agreementTable(a))
	if libs := libraryTable(a); len(libs.Rows) > 0 {
		d.para(text("The lock libraries teams use, under the same faults, on real redis-servers only (they read the wall clock and start their own goroutines, so the simulator cannot run them): each cell is runs that broke a claim of any kind / runs (real mode's tally does not yet count safety, liveness and promptness apart)."))
		d.add(libs)
	}
	if items := refusedItems(a); len(items) > 0 {
		d.para(text("Scenarios real mode could not run, and for which subjects:"))
		d.add(items)
	}
}

func agreementIntro(d *Document, a *Agreement) {
	agree, total, stale := 0, 0, 0
	for _, c := range a.Cells {
		switch {
		case c.Stale != "" && c.Refused == "":
			stale++
		case c.Stale != "":
		case c.Refused == "" && !c.library():
			total++
			if c.Agree() {
				agree++
			}
		}
	}
	s := []Span{text("Each pattern × scenario ran for real (redis-server processes, client processes, the faults done for real) beside the simulator's seeds of the same scenario; each rate is runs that broke a claim of any kind (safety, liveness or promptness: the table does not yet count them apart) / runs with its 95%% Wilson interval. A cell agrees when both rates are zero or both non-zero: %d of %d fresh cells agree. ", agree, total)}
	if stale > 0 {
		s = append(s, text("%d cell(s) are stale — made by other lock code, scenarios, claims or oracles than this report's — and shown greyed with the reason, counted neither as agreeing nor as disagreeing (rerun them: ", stale),
			code("locksim real --table FILE --merge --stale"), text("). "))
	}
	if a.NotesLink != "" {
		s = append(s, text("Every disagreement is explained in "), link("NOTES.md", a.NotesLink), text(". "))
	}
	if a.Command != "" {
		s = append(s, text("Measured by "), code(a.Command), text("."))
	}
	d.para(s...)
}

func agreementTable(a *Agreement) Table {
	t := Table{Header: []string{"pattern", "scenario", "simulator", "real", "agree"}}
	for _, c := range a.Cells {
		if c.Refused != "" || c.library() {
			continue
		}
		if c.Stale != "" {
			t.Rows = append(t.Rows, []TCell{plain("%s", c.Pattern), plain("%s", c.Scenario),
				cell(Stale, text("%s", realRate(c.Sim))), cell(Stale, text("%s", realRate(c.Real))), cell(Stale, text("stale: %s", c.Stale))})
			continue
		}
		verdict := cell(Good, text("yes"))
		if !c.Agree() {
			verdict = cell(Bad, text("no"))
		}
		t.Rows = append(t.Rows, []TCell{plain("%s", c.Pattern), plain("%s", c.Scenario),
			plain("%s", realRate(c.Sim)), plain("%s", realRate(c.Real)), verdict})
	}
	return t
}

// libraryTable is a row per library, a column per scenario it ran.
func libraryTable(a *Agreement) Table {
	var libs, scens []string
	rate := map[[2]string]RealTally{}
	stale := map[[2]string]string{}
	for _, c := range a.Cells {
		if c.Refused != "" || !c.library() {
			continue
		}
		libs, scens = appendNew(libs, c.Pattern), appendNew(scens, c.Scenario)
		rate[[2]string{c.Pattern, c.Scenario}] = c.Real
		stale[[2]string{c.Pattern, c.Scenario}] = c.Stale
	}
	t := Table{Header: append([]string{"library"}, scens...)}
	for _, l := range libs {
		r := []TCell{plain("%s", l)}
		for _, s := range scens {
			tl, ok := rate[[2]string{l, s}]
			switch {
			case !ok:
				r = append(r, plain("not run"))
			case stale[[2]string{l, s}] != "":
				r = append(r, cell(Stale, text("%s (stale: %s)", realRate(tl), stale[[2]string{l, s}])))
			case tl.Violated > 0:
				r = append(r, cell(Bad, text("%s", realRate(tl))))
			default:
				r = append(r, cell(Good, text("%s", realRate(tl))))
			}
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// refusedItems lists each refused scenario with its subjects and reasons.
func refusedItems(a *Agreement) List {
	var order []string
	who, why := map[string][]string{}, map[string][]string{}
	for _, c := range a.Cells {
		if c.Refused == "" {
			continue
		}
		order = appendNew(order, c.Scenario)
		who[c.Scenario] = append(who[c.Scenario], c.Pattern)
		why[c.Scenario] = appendNew(why[c.Scenario], c.Refused)
	}
	var items List
	for _, s := range order {
		items = append(items, []Span{code(s), text(" (%s): %s", strings.Join(who[s], ", "), strings.Join(why[s], "; "))})
	}
	return items
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

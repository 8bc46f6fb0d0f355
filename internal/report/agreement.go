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
	// Kinds are the cell's verdicts per kind of claim its subject makes,
	// in Kinds order (a library's with its real counts alone); nil for a
	// cell made before runs were counted by kind, whose tallies are then
	// of any claim.
	Kinds []AgreeKind
	// Rerun is the command that makes the cell's real runs again ("" if
	// not known).
	Rerun string
}

// AgreeKind is one kind of claim in a cell: the runs that broke a claim
// of it on each side, and whether they agree.
type AgreeKind struct {
	Kind      ClaimKind
	Sim, Real int
	// State is "agree", "disagree" or "not judged" (real mode judged the
	// kind in no run); "" for a library.
	State string
}

// RealTally counts runs that broke a claim (of any kind) and runs whose
// clients failed.
type RealTally struct{ Runs, Violated, Failed int }

// library reports whether the cell has no simulator side.
func (c AgreeCell) library() bool { return c.Sim.Runs == 0 }

// Agree reports whether the two sides agree on every kind of claim: both
// broke it in some run or neither did (over any claim, for a cell without
// Kinds).
func (c AgreeCell) Agree() bool {
	if c.library() {
		return true
	}
	if c.Kinds != nil {
		return len(c.disagreeing()) == 0
	}
	return (c.Sim.Violated == 0) == (c.Real.Violated == 0)
}

// disagreeing names the kinds the two sides disagree on.
func (c AgreeCell) disagreeing() []string {
	var out []string
	for _, k := range c.Kinds {
		if k.State == "disagree" {
			out = append(out, k.Kind.String())
		}
	}
	return out
}

// kind is the cell's verdict on k, false when its subject makes no claim
// of k.
func (c AgreeCell) kind(k ClaimKind) (AgreeKind, bool) {
	for _, a := range c.Kinds {
		if a.Kind == k {
			return a, true
		}
	}
	return AgreeKind{}, false
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
		d.para(text("The lock libraries teams use, under the same faults, on real redis-servers only (they keep their own time and run on their own runtime, Go, Node or Python, so the simulator cannot run them): each cell is, per kind of claim the library makes, the runs that broke a claim of that kind / runs, coloured by the first (safety, for a lock); the last column links the notes that explain each library's broken claims and gives the command that reruns the first such cell."))
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
	s := []Span{text("Each pattern × scenario ran for real (redis-server processes, client processes, the faults done for real) beside the simulator's seeds of the same scenario; each kind of claim has its own column — safety (mutex, safe-store, fencing, max-holders), liveness (progress), promptness (loss-signal) — giving the runs that broke a claim of that kind, simulator seeds · real runs, and — where the pattern makes no claim of the kind. A cell agrees when, kind by kind, both sides broke it or neither did: %d of %d fresh cells agree on every kind. ", agree, total)}
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
	t := Table{Header: []string{"pattern", "scenario"}}
	for _, k := range Kinds {
		t.Header = append(t.Header, k.String())
	}
	t.Header = append(t.Header, "agree", "runs")
	for _, c := range a.Cells {
		if c.Refused != "" || c.library() {
			continue
		}
		r := []TCell{plain("%s", c.Pattern), plain("%s", c.Scenario)}
		for _, k := range Kinds {
			r = append(r, agreeKindCell(c, k, false))
		}
		switch {
		case c.Stale != "":
			r = append(r, cell(Stale, text("stale: %s", c.Stale)))
		case c.Agree():
			r = append(r, cell(Good, text("yes")))
		case c.Kinds == nil:
			r = append(r, cell(Bad, text("no (over any claim)")))
		default:
			r = append(r, cell(Bad, text("no (%s)", strings.Join(c.disagreeing(), ", "))))
		}
		r = append(r, runsCell(c))
		t.Rows = append(t.Rows, r)
	}
	return t
}

// agreeKindCell is one kind's column of a cell: "sim · real" runs that broke
// a claim of it (real alone for a library), toned by that kind alone.
func agreeKindCell(c AgreeCell, k ClaimKind, library bool) TCell {
	tone := func(t Tone) Tone {
		if c.Stale != "" {
			return Stale
		}
		return t
	}
	if c.Kinds == nil {
		return cell(tone(Plain), text("not counted by kind"))
	}
	a, ok := c.kind(k)
	if !ok {
		return cell(tone(Plain), text("—"))
	}
	real := fmt.Sprintf("%d/%d", a.Real, c.Real.Runs-c.Real.Failed)
	if library {
		if a.Real > 0 {
			return cell(tone(Bad), text("%s %s", k, real))
		}
		return cell(tone(Good), text("%s %s", k, real))
	}
	s := fmt.Sprintf("%d/%d · %s", a.Sim, c.Sim.Runs, real)
	switch a.State {
	case "disagree":
		return cell(tone(Bad), text("%s", s))
	case "not judged":
		return cell(tone(Warn), text("%s (not judged)", s))
	}
	return cell(tone(Plain), text("%s", s))
}

// runsCell is a cell's runs: the simulator's seeds and real mode's runs,
// with what made a real run count for less; over any claim too, for a
// cell not counted by kind.
func runsCell(c AgreeCell) TCell {
	tone := Plain
	if c.Stale != "" {
		tone = Stale
	}
	real := fmt.Sprintf("%d real runs", c.Real.Runs)
	if c.Real.Failed > 0 {
		real += fmt.Sprintf(", %d client failure(s)", c.Real.Failed)
	}
	if c.Kinds == nil {
		return cell(tone, text("over any claim: simulator %s, real %s", realRate(c.Sim), realRate(c.Real)))
	}
	return cell(tone, text("%d seeds · %s", c.Sim.Runs, real))
}

// libraryTable is a row per library, a column per scenario it ran: each
// cell the real runs that broke a claim of each kind the library makes,
// toned by its safety claim.
func libraryTable(a *Agreement) Table {
	var libs, scens []string
	at := map[[2]string]AgreeCell{}
	for _, c := range a.Cells {
		if c.Refused != "" || !c.library() {
			continue
		}
		libs, scens = appendNew(libs, c.Pattern), appendNew(scens, c.Scenario)
		at[[2]string{c.Pattern, c.Scenario}] = c
	}
	t := Table{Header: append(append([]string{"library"}, scens...), "broken: why, and a rerun")}
	for _, l := range libs {
		r := []TCell{plain("%s", l)}
		broke := ""
		for _, s := range scens {
			c, ok := at[[2]string{l, s}]
			switch {
			case !ok:
				r = append(r, plain("not run"))
			case c.Kinds == nil:
				r = append(r, libraryLegacy(c))
			default:
				r = append(r, libraryCell(c))
			}
			if ok && c.Real.Violated > 0 && broke == "" {
				broke = c.Rerun
				if broke == "" {
					broke = fmt.Sprintf("locksim real --pattern %s --scenario %s --runs %d", l, s, c.Real.Runs)
				}
			}
		}
		r = append(r, libraryWhy(a.NotesLink, broke))
		t.Rows = append(t.Rows, r)
	}
	return t
}

// notesMechanisms is the heading of NOTES.md that explains, library by
// library, how each broke a claim (its GitHub anchor).
const notesMechanisms = "#broken-claims-and-their-mechanism"

// libraryWhy links a library that broke a claim to the notes that
// explain the mechanism, with rerun, the command that makes the first
// such cell's real runs again; "–" for one that broke none.
func libraryWhy(notes, rerun string) TCell {
	if rerun == "" {
		return plain("–")
	}
	var spans []Span
	if notes != "" {
		spans = append(spans, link("why", notes+notesMechanisms), text("; "))
	}
	return TCell{Spans: append(spans, code(rerun))}
}

// libraryCell lists each kind the library claims with its real runs
// broken; its tone is the first kind's (safety, for a lock).
func libraryCell(c AgreeCell) TCell {
	var parts []string
	var tc TCell
	for i, a := range c.Kinds {
		k := agreeKindCell(c, a.Kind, true)
		if i == 0 {
			tc = k
		}
		parts = append(parts, fmt.Sprintf("%s %d/%d", a.Kind, a.Real, c.Real.Runs-c.Real.Failed))
	}
	s := strings.Join(parts, ", ")
	if c.Real.Failed > 0 {
		s += fmt.Sprintf(", %d client failure(s)", c.Real.Failed)
	}
	if c.Stale != "" {
		s += " (stale: " + c.Stale + ")"
	}
	return cell(tc.Tone, text("%s", s))
}

// libraryLegacy is a library cell made before runs were counted by kind.
func libraryLegacy(c AgreeCell) TCell {
	switch {
	case c.Stale != "":
		return cell(Stale, text("%s over any claim (stale: %s)", realRate(c.Real), c.Stale))
	case c.Real.Violated > 0:
		return cell(Bad, text("%s over any claim", realRate(c.Real)))
	}
	return cell(Good, text("%s", realRate(c.Real)))
}

// refusedItems lists each refused scenario with its subjects and reasons,
// a reason that differs only by the subject's name said once ("each").
func refusedItems(a *Agreement) List {
	var order []string
	who, why := map[string][]string{}, map[string][]string{}
	for _, c := range a.Cells {
		if c.Refused == "" {
			continue
		}
		order = appendNew(order, c.Scenario)
		who[c.Scenario] = append(who[c.Scenario], c.Pattern)
		reason := strings.TrimPrefix(c.Refused, "scenario "+c.Scenario+": ")
		why[c.Scenario] = appendNew(why[c.Scenario], strings.ReplaceAll(reason, c.Pattern+" ", subjectMark))
	}
	var items List
	for _, s := range order {
		subject := "each "
		if len(who[s]) == 1 {
			subject = who[s][0] + " "
		}
		reasons := strings.ReplaceAll(strings.Join(why[s], "; "), subjectMark, subject)
		items = append(items, []Span{code(s), text(" (%s): %s", strings.Join(who[s], ", "), reasons)})
	}
	return items
}

// subjectMark stands for a subject's name in a refusal's reason while
// the reasons of a scenario are gathered.
const subjectMark = "\x00 "

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

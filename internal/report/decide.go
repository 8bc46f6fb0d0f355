package report

import (
	"slices"
	"strings"

	"github.com/locksim/locksim/internal/advise"
	"github.com/locksim/locksim/internal/broken"
)

// The decision table opens the report: one row per everyday situation,
// each the answer of the advisor's rule engine (package advise) to that
// situation, from this report's own measurements converted into its
// evidence (Evidence). `locksim advise` with the row's flags, over the
// evidence.json written beside the report, gives the same answer: the
// table is a rendering of the engine, never a second set of rules.

// ReportSituation is a row of the decision table: a name a team
// recognises and the situation it stands for.
type ReportSituation struct {
	Name  string
	Flags string // as locksim advise takes them
}

// ReportSituations are the rows, in the order a team asks.
func ReportSituations() []ReportSituation {
	const fixed = " --clocks stable --access exclusive"
	return []ReportSituation{
		{"Cache-stampede guard: a rare double run is harmless", "--double-run harmless --topology single --pauses none --work bounded" + fixed},
		{"Payment job: the store checks fencing tokens, Redis keeps its data (appendfsync always), pauses may outlast the TTL", "--double-run store-checks-tokens --topology single-fsync-always --pauses above-ttl --work bounded" + fixed},
		{"Payment job whose store cannot check tokens", "--double-run harmful --topology single-fsync-always --pauses above-ttl --work bounded" + fixed},
		{"One Redis node with default persistence (a restart loses the latest writes), the store checks tokens", "--double-run store-checks-tokens --topology single --pauses none --work bounded" + fixed},
		{"Sentinel or replicas with asynchronous failover, the store checks tokens", "--double-run store-checks-tokens --topology replicas --pauses none --work bounded" + fixed},
		{"Five independent Redis nodes, a double run is harmful", "--double-run harmful --topology independent:5 --pauses none --work bounded" + fixed},
		{"Work may outlive the TTL, the store checks tokens", "--double-run store-checks-tokens --topology single-fsync-always --pauses none --work unbounded" + fixed},
		{"Clients' or nodes' clocks may drift or jump, the store checks tokens", "--double-run store-checks-tokens --topology single-fsync-always --pauses none --work bounded --clocks may-jump --access exclusive"},
		{"Read-heavy config reload: many readers, a rare writer", "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access read-mostly"},
		{"FIFO: grants in arrival order", "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access fifo"},
		{"At most two holders at once (slots)", "--double-run harmful --topology single-fsync-always --pauses none --work bounded --clocks stable --access slots:2"},
	}
}

// Situation parses the row's flags.
func (r ReportSituation) Situation() (advise.Situation, error) {
	var s advise.Situation
	f := strings.Fields(r.Flags)
	for i := 0; i+1 < len(f); i += 2 {
		if err := s.Set(strings.TrimPrefix(f[i], "--"), f[i+1]); err != nil {
			return s, err
		}
	}
	return s, nil
}

// Decision is one row of the decision table, as the engine answered it.
type Decision struct {
	Situation string
	Flags     string
	Use       []string // empty when none is safe
	// Unsafe: no measured pattern is safe there; Answer.LeastBad is the
	// least bad.
	Unsafe bool
	Answer advise.Answer
}

// Decide answers every row from the measurements and what Build was
// given beside them (the production grid, the benchmark), as the
// decision table does.
func Decide(m *Measurements) []Decision {
	return decide(Evidence(m, m.production, m.bench, Options{Agreement: m.agreement}))
}

// decide answers every row from e.
func decide(e *advise.Evidence) []Decision {
	var out []Decision
	for _, r := range ReportSituations() {
		s, err := r.Situation()
		if err != nil {
			panic("report: decision row " + r.Name + ": " + err.Error()) // the rows are the report's own
		}
		a, err := advise.Advise(s, e)
		if err != nil {
			panic("report: decision row " + r.Name + ": " + err.Error())
		}
		out = append(out, Decision{Situation: r.Name, Flags: r.Flags, Use: a.Use, Unsafe: a.NoneSafe, Answer: a})
	}
	return out
}

// decisionTable renders the decisions: per row the choice and the
// settings of the first pattern (the others only where they are for a
// case), its residual risk, what the answer leaves open and what it did
// not judge, and the runner-up. locksim advise gives the rest.
func decisionTable(ds []Decision) Table {
	t := Table{Header: []string{"your situation", "use", "residual risk", "on real Redis", "not protected; not judged", "runner-up"}, Prose: true}
	for _, d := range ds {
		a := d.Answer
		use := cell(Good, bold("%s", a.UseText()))
		if a.NoneSafe {
			use = cell(Bad, text("%s", a.UseText()))
			for _, m := range a.Mitigations {
				use.Spans = append(use.Spans, text("; safe with %s: %s", m.Change, strings.Join(m.Use, ", ")))
			}
		}
		first := a.LeastBad
		if len(a.Use) > 0 {
			first = a.Use[0]
		}
		if st, ok := a.Settings[first]; ok {
			use.Spans = append(use.Spans, text(" — %s: %s", first, st.Text()))
		}
		for _, name := range a.Use {
			if st := a.Settings[name]; name != first && st.For != "" {
				use.Spans = append(use.Spans, text(" — %s for %s", name, st.For))
			}
		}
		res := "none measured"
		if len(a.Residual) > 0 {
			res = a.Residual[0].Text()
		}
		open := slices.Clone(a.NotProtected[:max(0, len(a.NotProtected)-1)]) // the last says what every answer leaves: the paragraph says it once
		for _, n := range a.NotJudged {
			open = append(open, "not judged: "+n)
		}
		var real []string
		for _, rc := range a.Real {
			real = append(real, rc.Text)
		}
		onReal := cell(Plain, text("%s", strings.Join(real, "; ")))
		switch {
		case len(a.Real) == 0:
			onReal = cell(Plain, text("not judged: no agreement table was read"))
		case a.Real[0].Confirmed:
			onReal.Tone = Good
		}
		ru := "none"
		if a.RunnerUp != nil {
			ru = a.RunnerUp.Pattern + ": " + a.RunnerUp.Why
		}
		sit := cell(Plain, text("%s ", d.Situation), code("locksim advise "+d.Flags))
		t.Rows = append(t.Rows, []TCell{sit, use, plain("%s", res), onReal, plain("%s", strings.Join(open, "; ")), plain("%s", ru)})
	}
	return t
}

func decisions(d *Document, m *Measurements, opt Options) {
	ds := Decide(m)
	d.heading(2, "decide", "Decide: which pattern for your situation")
	d.para(text("Each row is the answer of the rule engine behind "), code("locksim advise"), text(" to the situation its flags describe, from this report's measurements (written beside it as "), code(FileEvidence),
		text("). Per situation one finding counts — with a harmless double run the lock staying free past the progress bound; with a store that checks tokens a lost update; otherwise two clients relying on the lock at once (with slots, one holder too many) — and each candidate is judged scenario by scenario over the scenarios that model the situation, ranked by its worst one, never pooled. "),
		text("A pattern is used only when no seed of any of those scenarios had the finding; otherwise the row says none is safe, names the least bad and the changes under which one is. No answer covers faults outside its scenarios: a clean cell is that many clean seeds, not a proof. "),
		text("Each row also says whether real mode confirms its pattern: confirmed only when real redis-server runs were made under some of its scenarios by this report's code, and every such cell agrees with the simulator on every kind of claim (a stale cell confirms nothing; the agreement section has the cells). "),
		text("%s", intervalNote()))
	d.add(decisionTable(ds))
}

// metric is what counts as a failure in a cell.
type metric struct {
	what string          // "seeds with a lost update", for the evidence
	runs func(*Cell) int // failing seeds of the cell
}

// asDesigned counts seeds with a lost update, the store checking the
// tokens of the patterns that issue them.
var asDesigned = metric{"seeds with a lost update (tokens checked where issued)", func(c *Cell) int { return c.LostRuns }}

// pool sums a pattern's failing seeds and seeds over some scenarios.
func (m *Measurements) pool(i int, cols []int, mt metric) (k, n int) {
	for _, j := range cols {
		k, n = k+mt.runs(m.Cells[i][j]), n+m.Cells[i][j].Seeds
	}
	return k, n
}

// FIFO names the patterns the registry marks FIFO (pattern.Pattern.FIFO):
// those that grant in arrival order, and the broken variants that imitate
// them.
func FIFO() []string {
	var out []string
	for _, p := range broken.Catalog().All() {
		if p.FIFO {
			out = append(out, p.Name)
		}
	}
	return out
}

func (m *Measurements) patternIndex(name string) int {
	for i, p := range m.Patterns {
		if p.Name == name {
			return i
		}
	}
	return -1
}

package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// The decision table opens the report: one row per situation a team is
// in, the pattern to use, the one to avoid, and the cells behind both. No
// verdict is written down: each row names the scenarios that model the
// situation, the candidates and what counts as a failure, and the rule
// below picks from the measurements.
//
// The rule: pool each candidate's failing seeds over the row's scenarios
// in which some candidate failed (a scenario clean for every candidate is
// left out and named: pooled, it would only dilute the others) and take
// the lowest rate. Use it, and every candidate whose interval
// overlaps it (the measurements do not tell them apart); avoid every
// candidate whose interval lies wholly above it. When even the best is
// failing in more than CareRate of the seeds for sure (its interval lies
// above CareRate), no pattern is safe there and the row says so.

// situation is a row of the decision table.
type situation struct {
	name      string   // what the team's system is like
	scenarios []string // the scenarios that model it; nil: every fault scenario
	// candidates picks the patterns that could serve; nil: the exclusive
	// (one-holder) correct patterns.
	candidates func(m *Measurements, i int) bool
	// family, when set, makes the row about a specialised lock: use the
	// correct pattern of the family, avoid the broken variants that break
	// a claim where it does not (decideFamily).
	family []string
	metric metric
}

// metric is what counts as a failure in a cell.
type metric struct {
	what string          // "seeds with a lost update", for the evidence
	runs func(*Cell) int // failing seeds of the cell
}

var (
	// asDesigned counts seeds with a lost update, the store checking the
	// tokens of the patterns that issue them.
	asDesigned = metric{"seeds with a lost update (tokens checked where issued)", func(c *Cell) int { return c.LostRuns }}
	// noChecks counts them with every token withheld from the store.
	noChecks = metric{"seeds with a lost update (no token checked)", noFenceRuns}
	// broken counts seeds that broke a claim of the pattern.
	brokeClaim = metric{"seeds that broke a safety claim of the pattern", func(c *Cell) int { return c.Kinds[Safety].Violating }}
)

// situations are the rows, in the order a team asks.
func situations() []situation {
	return []situation{
		{name: "The store can check fencing tokens (rejects a write with a lower token), and Redis keeps its data", scenarios: processFaults, metric: asDesigned},
		{name: "The store cannot check tokens, and Redis keeps its data", scenarios: processFaults, metric: noChecks},
		{name: "One Redis node, no replicas (it may restart empty, its clock may jump)", scenarios: []string{"node-restart-without-persistence", "node-clock-jump"},
			candidates: singleNode, metric: asDesigned},
		{name: "Sentinel or replicas: failover to an asynchronous replica", scenarios: []string{"failover-async-replication"}, metric: asDesigned},
		{name: "Several independent nodes (any one may restart empty, jump its clock or fail over)", scenarios: []string{"node-restart-without-persistence", "node-clock-jump", "failover-async-replication"}, metric: asDesigned},
		{name: "Work may outlive the TTL", scenarios: []string{"slow-work"}, metric: asDesigned},
		{name: "Pauses of the order of the TTL (GC, VM steal)", scenarios: []string{"gc-pause"}, metric: asDesigned},
		{name: "Clients' clocks drift or jump", scenarios: []string{"client-clock-drift", "client-clock-jump"}, metric: asDesigned},
		{name: "Need FIFO order (grants in arrival order)", family: FIFO(), metric: brokeClaim},
		{name: "Readers and writers (readers share)", family: ReadWrite(), metric: brokeClaim},
	}
}

// processFaults are the scenarios in which Redis keeps its data: the
// faults of clients, clocks and the network. The node faults that lose
// data (a restart without persistence, a failover to a replica that
// missed writes) have rows of their own.
var processFaults = []string{"client-clock-drift", "client-clock-jump", "delayed-reply", "gc-pause", "node-clock-jump", "partition", "slow-work", "wrong-owner-release"}

// FIFO names the patterns the registry marks FIFO (pattern.Pattern.FIFO):
// those that grant in arrival order, and the broken variants that imitate
// them.
func FIFO() []string {
	var out []string
	for _, p := range pattern.All() {
		if p.FIFO {
			out = append(out, p.Name)
		}
	}
	return out
}

func singleNode(m *Measurements, i int) bool { return m.isExclusive(i) && m.Patterns[i].Nodes == 1 }

func (m *Measurements) isExclusive(i int) bool { return slices.Contains(m.exclusive(), i) }

// pooled is a candidate's failing seeds over a row's scenarios.
type pooled struct {
	pattern int
	k, n    int
}

func (p pooled) interval() Interval { return Wilson(p.k, p.n) }
func (p pooled) rate() float64      { return float64(p.k) / float64(max(p.n, 1)) }

// Decision is one row of the decision table, as the rule decided it.
type Decision struct {
	Situation string
	Use       []string // best first; empty when no candidate was measured
	Avoid     []string
	// Unsafe: even the best fails in more than CareRate of the seeds for
	// sure; Use then names the least bad.
	Unsafe bool
	// Few: the best is clean over too few seeds to rule out CareRate.
	Few      bool
	Evidence string
}

// Decide applies the rule to every situation the measurements cover.
func Decide(m *Measurements) []Decision {
	var out []Decision
	for _, s := range situations() {
		if d, ok := decide(m, s); ok {
			out = append(out, d)
		}
	}
	return out
}

// decide applies the rule to one situation; ok is false when fewer than
// two candidates or none of its scenarios were measured.
func decide(m *Measurements, s situation) (Decision, bool) {
	if s.family != nil {
		return decideFamily(m, s)
	}
	cols := m.situationColumns(s)
	pick := s.candidates
	if pick == nil {
		pick = func(m *Measurements, i int) bool { return m.isExclusive(i) }
	}
	var cand []int
	for i := range m.Patterns {
		if pick(m, i) {
			cand = append(cand, i)
		}
	}
	cols, clean := m.discriminating(cols, cand, s.metric)
	var ps []pooled
	for _, i := range cand {
		p := pooled{pattern: i}
		for _, j := range cols {
			p.k, p.n = p.k+s.metric.runs(m.Cells[i][j]), p.n+m.Cells[i][j].Seeds
		}
		ps = append(ps, p)
	}
	if len(ps) < 2 || len(cols) == 0 {
		return Decision{}, false
	}
	slices.SortStableFunc(ps, func(a, b pooled) int { return cmp.Compare(a.rate(), b.rate()) })
	best := ps[0].interval()
	d := Decision{Situation: s.name, Unsafe: best.Lo > CareRate, Few: TooFewSeeds(ps[0].k, ps[0].n, CareRate)}
	var use, avoid, tied []pooled
	for _, p := range ps {
		switch {
		case best.Below(p.interval()):
			avoid = append(avoid, p)
		case !m.Patterns[p.pattern].Broken:
			use = append(use, p)
		default:
			tied = append(tied, p)
		}
	}
	d.Use, d.Avoid = m.names(use), m.names(avoid)
	if s.metric.what == asDesigned.what {
		for k, p := range use {
			if m.Patterns[p.pattern].Tokens {
				d.Use[k] += " (tokens checked)"
			}
		}
	}
	d.Evidence = m.evidence(s, cols, use, avoid, tied)
	if len(clean) > 0 {
		d.Evidence += fmt.Sprintf("; not pooled, every candidate clean there: %s", m.cleanText(clean, cand))
	}
	return d, true
}

// discriminating splits a row's columns into those pooled and those left
// out: a column in which no candidate failed, beside one in which some
// did, tells the candidates nothing and would only dilute the dirty
// column's rates (client-clock-jump's 0 for everyone pooled with
// client-clock-drift's 7/20 reads as 7/40). When every column is clean,
// all are pooled: together they are the evidence that nothing failed.
func (m *Measurements) discriminating(cols, cand []int, mt metric) (pooledCols, clean []int) {
	for _, j := range cols {
		failed := false
		for _, i := range cand {
			failed = failed || mt.runs(m.Cells[i][j]) > 0
		}
		if failed {
			pooledCols = append(pooledCols, j)
		} else {
			clean = append(clean, j)
		}
	}
	if len(pooledCols) == 0 {
		return cols, nil
	}
	return pooledCols, clean
}

// cleanText names the clean columns left out, each with its seeds.
func (m *Measurements) cleanText(clean, cand []int) string {
	var out []string
	for _, j := range clean {
		out = append(out, fmt.Sprintf("%s (0/%d each)", m.Scenarios[j].Name, m.Cells[cand[0]][j].Seeds))
	}
	return strings.Join(out, ", ")
}

// situationColumns are the indexes of the situation's scenarios that were
// measured (every fault scenario when it names none).
func (m *Measurements) situationColumns(s situation) []int {
	if s.scenarios == nil {
		return m.faults()
	}
	var out []int
	for _, name := range s.scenarios {
		if j := m.scenarioIndex(name); j >= 0 {
			out = append(out, j)
		}
	}
	return out
}

func (m *Measurements) names(ps []pooled) []string {
	var out []string
	for _, p := range ps {
		out = append(out, m.Patterns[p.pattern].Name)
	}
	return out
}

// evidence cites the pooled rates of the chosen and the avoided, and those
// the intervals do not separate from the best.
func (m *Measurements) evidence(s situation, cols []int, use, avoid, tied []pooled) string {
	var sc []string
	for _, j := range cols {
		sc = append(sc, m.Scenarios[j].Name)
	}
	where := "every fault scenario"
	if s.scenarios != nil {
		where = strings.Join(sc, ", ")
	}
	out := fmt.Sprintf("%s under %s: %s", s.metric.what, where, m.rates(use))
	if len(avoid) > 0 {
		out += "; separated above it: " + m.rates(avoid)
	}
	if len(tied) > 0 {
		out += "; not separated from it: " + m.rates(tied)
	}
	return out
}

func (m *Measurements) rates(ps []pooled) string {
	var out []string
	for _, p := range ps {
		out = append(out, m.Patterns[p.pattern].Name+" "+rateMark(p.k, p.n))
	}
	return strings.Join(out, ", ")
}

// decisionTable renders the decisions.
func decisionTable(ds []Decision) Table {
	t := Table{Header: []string{"your situation", "use", "avoid", "evidence"}, Prose: true}
	for _, d := range ds {
		use := cell(Good, bold("%s", strings.Join(d.Use, ", ")))
		switch {
		case len(d.Use) == 0:
			use = cell(Warn, text("no correct pattern measured"))
		case d.Unsafe:
			use = cell(Bad, text("none is safe here; least bad: %s", strings.Join(d.Use, ", ")))
		case len(d.Avoid) == 0 && len(d.Use) > 1:
			use = cell(Warn, text("not told apart by the intervals: %s", strings.Join(d.Use, ", ")))
		case d.Few:
			use = cell(Warn, bold("%s", strings.Join(d.Use, ", ")), text(" (clean, but over too few seeds%s)", FewMark))
		}
		avoid := plain("%s", strings.Join(d.Avoid, ", "))
		if len(d.Avoid) == 0 {
			avoid = plain("none separated from the best")
		}
		t.Rows = append(t.Rows, []TCell{plain("%s", d.Situation), use, avoid, plain("%s", d.Evidence)})
	}
	return t
}

func decisions(d *Document, m *Measurements) {
	ds := Decide(m)
	if len(ds) == 0 {
		return
	}
	d.heading(2, "decide", "Decide: which pattern for your situation")
	d.para(text("Each row is a rule applied to the measurements: the scenarios that model the situation, pooled (a scenario in which no candidate failed is left out and named, since pooled it would only dilute the others' rates); the pattern with the fewest failing seeds is used, with every other whose 95%% interval overlaps it (the seeds do not tell them apart); a pattern whose interval lies wholly above it is avoided. "),
		text("A row says none is safe when even the best fails in more than %s%% of the seeds for sure (its interval lies above that). ", pct(CareRate)),
		text("%s The evidence of each choice is in the ", intervalNote()), link("tables of every pattern under every scenario", "#safety"), text(", cell by cell."))
	d.add(decisionTable(ds))
}

package report

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/bench"
)

// The second source article closes with a comparison table of five
// patterns, stated rather than measured, and a conclusion: a single node
// plus Sentinel covers "99%" of cases. The report reproduces the table
// claim by claim beside what the simulator measured for the same pattern,
// and judges each claim by a rule on the measurements.

// articlePatterns are the article's columns, as locksim names them:
// SET NX EX, reentrant, watchdog, Redlock, the production lock service.
var articlePatterns = []string{"basic", "reentrant", "watchdog", "redlock", "service"}

// articleClaim is one row of the article's table: what it says of each
// pattern (in articlePatterns order), and the judge that compares it with
// the measurements.
type articleClaim struct {
	dimension string
	says      [5]string
	judge     func(a *articleJudge, pattern string, says string) (measured, verdict string)
}

// The claims, transcribed from the article: its stars kept, its ✅ and ❌
// written yes and no.
var articleClaims = []articleClaim{
	{"complexity", [5]string{"★ low", "★★ medium", "★★★ high", "★★★ high", "★★★★ very high"}, (*articleJudge).complexity},
	{"atomicity", [5]string{"⚠ needs Lua", "yes (Lua)", "yes (Lua)", "yes (multi-node)", "yes (Lua)"}, (*articleJudge).wrongDelete},
	{"reentrancy", [5]string{"no", "yes", "yes", "no", "yes"}, (*articleJudge).notMeasured},
	{"auto-renewal", [5]string{"no", "no", "yes", "no", "yes"}, (*articleJudge).renewal},
	{"multi-node fault tolerance", [5]string{"no", "no", "no", "yes", "optional"}, (*articleJudge).multiNode},
	{"wrong-delete protection", [5]string{"⚠ needs Lua", "yes", "yes", "yes", "yes"}, (*articleJudge).wrongDelete},
	{"GC tolerance", [5]string{"★ high", "★ high", "⚠ medium", "★ high", "⚠ medium"}, (*articleJudge).gc},
	{"recommended use", [5]string{"prototypes", "standard business", "long transactions", "high availability", "critical path"}, (*articleJudge).recommended},
}

// articleJudge holds what the judges read.
type articleJudge struct {
	m  *Measurements
	b  *Bench
	ds []Decision
}

// The verdicts.
const (
	verdictHolds        = "holds"
	verdictContradicted = "contradicted"
	verdictPartly       = "partly"
	verdictUnmeasured   = "not measured"
	verdictUnclear      = "unclear: the intervals overlap"
)

// rate is pattern's violating seeds under scen, or ok false if unmeasured.
func (a *articleJudge) rate(pattern, scen string) (rated, bool) {
	c := a.m.Cell(pattern, scen)
	if c == nil {
		return rated{}, false
	}
	return rated{pattern, c.Kinds[Safety].Violating, c.Seeds}, true
}

func (a *articleJudge) notMeasured(string, string) (string, string) {
	return "the report's workload does not re-enter (the gate's reenter scenarios check reentrant and service)", verdictUnmeasured
}

// complexity is effort, which a simulator cannot see; the benchmark's
// Redis round trips per acquire+release cycle are its runtime cost.
func (a *articleJudge) complexity(pattern, _ string) (string, string) {
	if a.b == nil {
		return "no benchmark data", verdictUnmeasured
	}
	nodes := 1
	if i := a.m.patternIndex(pattern); i >= 0 {
		nodes = a.m.Patterns[i].Nodes
	}
	for _, r := range a.b.Rows {
		if r.Subject == pattern && r.Clients == 1 && r.Keys == bench.Distinct && r.Nodes == nodes {
			return fmt.Sprintf("%.1f Redis round trips per cycle (benchmark, %d node%s, 1 client)", r.RoundTripsPerCycle, r.Nodes, plural(r.Nodes)), "effort is not measured"
		}
	}
	return "not in the benchmark", verdictUnmeasured
}

// wrongDelete: an owner-checked release leaves another client's lock
// alone; the broken variant basic-del (a plain DEL) shows what it guards.
func (a *articleJudge) wrongDelete(pattern, _ string) (string, string) {
	const scen = "wrong-owner-release"
	r, ok := a.rate(pattern, scen)
	if !ok {
		return "scenario " + scen + " not run", verdictUnmeasured
	}
	s := fmt.Sprintf("%s under %s", r, scen)
	if del, ok := a.rate("basic-del", scen); ok && pattern == "basic" {
		s += fmt.Sprintf("; a plain DEL (basic-del): %s", rateMark(del.k, del.n))
	}
	if r.k == 0 {
		return s, verdictHolds
	}
	return s, verdictContradicted
}

// renewal: a pattern that renews survives work longer than the TTL
// (slow-work) measurably better than basic, which does not.
func (a *articleJudge) renewal(pattern, says string) (string, string) {
	const scen = "slow-work"
	r, ok1 := a.rate(pattern, scen)
	ref, ok2 := a.rate("basic", scen)
	if !ok1 || !ok2 {
		return "scenario " + scen + " not run", verdictUnmeasured
	}
	s := fmt.Sprintf("%s under %s (basic %s)", rateMark(r.k, r.n), scen, rateMark(ref.k, ref.n))
	return s, judged(strings.HasPrefix(says, "yes"), compare(r, ref))
}

// outcome is how a pattern compares with basic under one scenario.
type outcome int

const (
	notBetter outcome = iota // as bad as basic, or worse
	unclear                  // lower, but the intervals overlap
	better                   // separated below basic's
)

func compare(r, ref rated) outcome {
	switch {
	case r.interval().Below(ref.interval()):
		return better
	case r.k*ref.n < ref.k*r.n:
		return unclear
	}
	return notBetter
}

// judged turns a claim (that the pattern does better than basic) and the
// comparison into a verdict.
func judged(claimed bool, o outcome) string {
	switch {
	case o == unclear:
		return verdictUnclear
	case claimed == (o == better):
		return verdictHolds
	}
	return verdictContradicted
}

// multiNode: tolerating a node fault is failing measurably less than
// basic under it; a pattern said not to tolerate them must not. Each
// scenario's rate is shown with its comparison, so that the verdict reads
// off the cells: "yes" holds where it is separated below basic's under
// every node fault, partly under some, unclear where it is only lower
// with overlapping intervals; "no" holds where it is separated below
// under none (a lower rate whose interval overlaps basic's does not show
// tolerance), partly under some, and is contradicted under all.
// "optional" is the option to run on several nodes, which a one-node
// build does not have: not measured.
func (a *articleJudge) multiNode(pattern, says string) (string, string) {
	var parts []string
	var outs []outcome
	for _, scen := range []string{"node-restart-without-persistence", "failover-async-replication", "node-clock-jump"} {
		r, ok1 := a.rate(pattern, scen)
		ref, ok2 := a.rate("basic", scen)
		if !ok1 || !ok2 {
			continue
		}
		o := compare(r, ref)
		outs = append(outs, o)
		part := fmt.Sprintf("%s %s", scen, rateMark(r.k, r.n))
		if o == better && pattern != "basic" {
			part += fmt.Sprintf(", separated below basic's %s", rateMark(ref.k, ref.n))
		}
		parts = append(parts, part)
	}
	if len(outs) == 0 {
		return "no node-fault scenario run", verdictUnmeasured
	}
	s := strings.Join(parts, "; ")
	if says == "optional" {
		return s + " (measured as built here: one node; the multi-node option is not built)", verdictUnmeasured
	}
	n := func(o outcome) int {
		c := 0
		for _, x := range outs {
			c += btoi(x == o)
		}
		return c
	}
	claimed := says == "yes"
	switch {
	case claimed && n(better) == len(outs), !claimed && n(better) == 0:
		return s, verdictHolds
	case n(better) > 0 && n(better) < len(outs):
		return s, verdictPartly
	case !claimed && n(better) == len(outs):
		return s, verdictContradicted
	case n(unclear) > 0:
		return s, verdictUnclear
	}
	return s, verdictContradicted
}

// gc: "high" tolerance holds if the pattern is not for sure broken in more
// than CareRate of the gc-pause runs; "medium" if not in more than half.
func (a *articleJudge) gc(pattern, says string) (string, string) {
	const scen = "gc-pause"
	r, ok := a.rate(pattern, scen)
	if !ok {
		return "scenario " + scen + " not run", verdictUnmeasured
	}
	limit := CareRate
	if strings.Contains(says, "medium") {
		limit = 0.5
	}
	return fmt.Sprintf("%s under %s (a pause of 1.5 TTL)", rateMark(r.k, r.n), scen), agree(true, r.interval().Lo <= limit)
}

// recommended lists the decision table's rows that choose the pattern.
func (a *articleJudge) recommended(pattern, _ string) (string, string) {
	var rows []string
	for _, d := range a.ds {
		for _, u := range d.Use {
			if (u == pattern || strings.HasPrefix(u, pattern+" ")) && !d.Unsafe {
				rows = append(rows, d.Situation)
			}
		}
	}
	if len(rows) == 0 {
		return "chosen by no row of the decision table", "a recommendation, not a claim"
	}
	return "chosen for: " + strings.Join(rows, "; "), "a recommendation, not a claim"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// agree turns a claim and what the measurements show into a verdict.
func agree(claimed, shown bool) string {
	if claimed == shown {
		return verdictHolds
	}
	return verdictContradicted
}

// articleTable is the article's table beside the measurements.
func articleTable(m *Measurements, b *Bench) Table {
	a := &articleJudge{m: m, b: b, ds: Decide(m)}
	t := Table{Header: []string{"claim", "pattern", "the article says", "locksim measured", "verdict"}, Prose: true}
	for _, c := range articleClaims {
		for k, p := range articlePatterns {
			if m.Cell(p, m.Scenarios[0].Name) == nil {
				continue
			}
			measured, verdict := c.judge(a, p, c.says[k])
			t.Rows = append(t.Rows, []TCell{plain("%s", c.dimension), plain("%s", p), plain("%s", c.says[k]), plain("%s", measured), verdictCell(verdict)})
		}
	}
	return t
}

func verdictCell(v string) TCell {
	switch v {
	case verdictHolds:
		return cell(Good, text("%s", v))
	case verdictContradicted:
		return cell(Bad, text("%s", v))
	case verdictPartly, verdictUnclear:
		return cell(Warn, text("%s", v))
	}
	return plain("%s", v)
}

// sentinelClaim is the article's conclusion, measured under failover: the
// single-node patterns' violation rates when a node fails over to an
// asynchronous replica while the lock is held, beside Redlock's.
func sentinelClaim(m *Measurements) []Span {
	const scen = "failover-async-replication"
	j := m.scenarioIndex(scen)
	if j < 0 {
		return nil
	}
	var single, multi []rated
	for _, i := range m.exclusive() {
		c := m.Cells[i][j]
		r := rated{c.Pattern, c.Kinds[Safety].Violating, c.Seeds}
		if m.Patterns[i].Nodes == 1 {
			single = append(single, r)
		} else {
			multi = append(multi, r)
		}
	}
	if len(single) == 0 {
		return nil
	}
	worst := 0
	for k, r := range single {
		if r.interval().Lo > single[worst].interval().Lo {
			worst = k
		}
	}
	s := []Span{text("The article's conclusion — \"Redlock is over-engineering for most cases; a single node plus Sentinel covers 99%% of business cases\" — measured under "), bold("%s", scen),
		text(" (%s): the single-node patterns broke a safety claim in %s.", m.Scenarios[j].Summary, joinRated(single))}
	if len(multi) > 0 {
		s = append(s, text(" With independent nodes: %s.", joinRated(multi)))
	}
	if single[worst].interval().Lo > CareRate {
		s = append(s, text(" So a failover while a lock is held is, for a single node plus Sentinel, a broken lock far more often than not (%s at best): the 99%% holds only as far as failovers during a held lock are rare in a team's system, which is a question of its failover rate, not of the lock.", IntervalText(bestOf(single).interval())))
	}
	return s
}

// bestOf is the rated with the lowest rate.
func bestOf(rs []rated) rated {
	best := rs[0]
	for _, r := range rs[1:] {
		if r.k*best.n < best.k*r.n {
			best = r
		}
	}
	return best
}

func articles(d *Document, m *Measurements, b *Bench) {
	if len(m.Scenarios) == 0 || m.Cell("basic", m.Scenarios[0].Name) == nil {
		return
	}
	d.heading(2, "articles", "The source articles' comparison, checked")
	d.para(text("The comparison table of the article this suite started from, claim by claim, beside what locksim measured for the same pattern. Judged by rules: a pattern said to renew or to tolerate a node fault must fail measurably less (separated intervals) than basic under slow-work or the node faults (partly, where it does under only some of them); one said not to must not (partly contradicted where it does under some); \"optional\" multi-node support, which the one-node build here does not have, is not measured; \"high\" GC tolerance holds if the gc-pause rate is not for sure above %s%%, \"medium\" if not for sure above 50%%; a release said to be protected must be clean under wrong-owner-release.", pct(CareRate)))
	d.add(articleTable(m, b))
	if s := sentinelClaim(m); s != nil {
		d.para(s...)
	}
}

package advise

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// option is a candidate: a pattern, with or without WAIT for replicas.
type option struct {
	p      *Pattern
	wait   bool
	fit    int
	judged []Judged
	// worst is the index in judged of the worst measured scenario, -1
	// when none was measured.
	worst int
	total int // failing seeds over the measured scenarios
	safe  bool
}

func (o *option) rate() float64 {
	if o.worst < 0 {
		return 2 // unmeasured ranks after every measured rate
	}
	j := o.judged[o.worst]
	return float64(j.Runs) / float64(max(j.Seeds, 1))
}

// Advise answers s from e. s must be complete (Missing empty).
func Advise(s Situation, e *Evidence) (Answer, error) {
	if m := s.Missing(); len(m) > 0 {
		return Answer{}, fmt.Errorf("advise: the situation lacks --%s", m[0])
	}
	return advise(s, newIndex(e), true), nil
}

// index finds a cell by pattern and scenario at once.
type index struct {
	e     *Evidence
	cells map[[2]string]*Cell
}

func newIndex(e *Evidence) *index {
	ix := &index{e: e, cells: map[[2]string]*Cell{}}
	for i := range e.Cells {
		c := &e.Cells[i]
		ix.cells[[2]string{c.Pattern, c.Scenario}] = c
	}
	return ix
}

// binary is the command a replay starts with: the one that made the
// evidence (a user's own binary built with cli.Main), else locksim.
func (ix *index) binary() string {
	if f := strings.Fields(ix.e.Command); len(f) > 0 {
		return f[0]
	}
	return "locksim"
}

func advise(s Situation, ix *index, mitigate bool) Answer {
	k := kind(s)
	scs, notJudged := scenarios(s)
	a := Answer{Format: FormatAnswer, Situation: s, Use: []string{}, Settings: map[string]Settings{}, Mitigations: []Mitigation{},
		Counts: k.What, Residual: []Residual{}, NotProtected: []string{}, NotJudged: notJudged, Real: []RealCheck{}, Evidence: []Judged{},
		Source: Source{Commit: ix.e.Commit, Seeds: ix.e.Seeds, ProductionSeeds: ix.e.ProductionSeeds}}
	opts := options(s, ix, k, scs)
	if len(opts) == 0 {
		a.NoneSafe = true
		a.NotJudged = append(a.NotJudged, "no pattern the evidence measured serves this deployment and access")
		return a
	}
	used := useSet(opts)
	chosen := used
	if len(used) == 0 {
		a.NoneSafe, a.LeastBad = true, opts[0].p.Name
		chosen = opts[:1]
	}
	for _, o := range chosen {
		if len(used) > 0 {
			a.Use = append(a.Use, o.p.Name)
		}
		a.Settings[o.p.Name] = settings(s, o)
		a.Residual = append(a.Residual, residual(o, k))
		a.Evidence = append(a.Evidence, o.judged...)
	}
	if ru := runnerUp(opts, chosen); ru != nil {
		a.RunnerUp = &RunnerUp{Pattern: ru.p.Name, Why: whyLost(ru, chosen[0], k)}
		a.Evidence = append(a.Evidence, ru.judged...)
	}
	hotKey(&a, s, ix.e, opts, chosen)
	a.NotProtected = notProtected(s, chosen[0], k, ix, scs)
	a.NotJudged = append(a.NotJudged, unmeasured(chosen)...)
	a.NotJudged = append(a.NotJudged, unfired(chosen)...)
	if s.Access == AccessReadMostly {
		a.NotJudged = append(a.NotJudged, readRatio(chosen[0].p))
	}
	realChecks(&a, chosen, ix.e)
	if a.NoneSafe && mitigate {
		a.Mitigations = mitigations(s, ix)
	}
	return a
}

// readRatio says at what load the answer's pattern was measured for a
// read-mostly situation: no other reader:writer ratio was.
func readRatio(p *Pattern) string {
	switch {
	case p.Shared && p.Reads > 1:
		return fmt.Sprintf("a read-mostly load at another ratio: %s was measured with %d reads per write", p.Name, p.Reads)
	case p.Shared:
		return fmt.Sprintf("a read-mostly load: %s was measured with its clients alternating reads and writes 1:1, not at a higher reader:writer ratio", p.Name)
	}
	return fmt.Sprintf("a read-mostly load: %s is a mutex, its readers excluding each other; no measured pattern whose readers share served the situation", p.Name)
}

// options are the candidates that fit s, judged and ranked: safe first,
// then by fit, by the rate of the worst scenario, by the failing seeds
// over all, by complexity, without WAIT before with, by name.
func options(s Situation, ix *index, k Kind, scs []scen) []*option {
	var out []*option
	for i := range ix.e.Patterns {
		p := &ix.e.Patterns[i]
		f := fit(s, p)
		if f < 0 {
			continue
		}
		waits := []bool{false}
		if s.Topology == TopoReplicas {
			waits = append(waits, true)
		}
		for _, w := range waits {
			if o := judge(p, w, f, ix, k, scs); o != nil {
				out = append(out, o)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b *option) int {
		return cmp.Or(cmp.Compare(btoi(!a.safe), btoi(!b.safe)), cmp.Compare(a.fit, b.fit), cmp.Compare(a.rate(), b.rate()),
			cmp.Compare(a.total, b.total), cmp.Compare(complexity(a.p), complexity(b.p)), cmp.Compare(btoi(a.wait), btoi(b.wait)),
			cmp.Compare(a.p.Name, b.p.Name))
	})
	return out
}

// judge judges p (with WAIT when wait) scenario by scenario; nil when
// the pattern refuses some scenario's options, or, with wait, when no
// scenario has a WAIT twin it was measured under.
func judge(p *Pattern, wait bool, f int, ix *index, k Kind, scs []scen) *option {
	o := &option{p: p, wait: wait, fit: f, worst: -1}
	twins := 0
	for _, sc := range scs {
		name := sc.name
		if wait && sc.wait != "" {
			name = sc.wait
		}
		j := Judged{Pattern: p.Name, Scenario: name, Wait: wait && sc.wait != "", Why: sc.why, Kind: k.Name}
		c := ix.cells[[2]string{p.Name, name}]
		if c != nil && c.Refused != "" {
			return nil
		}
		if c != nil && c.Seeds > 0 {
			n := k.of(c)
			j.Measured, j.Runs, j.Seeds, j.Unfired = true, n.Runs, c.Seeds, c.Unfired
			j.Lo, j.Hi = wilson(n.Runs, c.Seeds)
			if n.Runs > 0 {
				j.Replay = fmt.Sprintf("%s run --pattern %s --scenario %s --seed %d", ix.binary(), p.Name, name, n.First)
			}
			twins += btoi(j.Wait)
			o.total += n.Runs
		}
		o.judged = append(o.judged, j)
	}
	if wait && twins == 0 {
		return nil
	}
	o.safe = o.total == 0
	for i, j := range o.judged {
		if !j.Measured {
			continue
		}
		if o.worst < 0 || worse(j, o.judged[o.worst]) {
			o.worst = i
		}
	}
	if o.worst < 0 {
		o.safe = false // nothing measured is no evidence of safety
	}
	return o
}

// worse reports whether a is a worse scenario than b: a higher rate, or
// the same rate over fewer seeds (the wider interval).
func worse(a, b Judged) bool {
	x, y := a.Runs*b.Seeds, b.Runs*a.Seeds
	return x > y || (x == y && a.Hi > b.Hi)
}

// useSet is the safe options of the best fit and the least complexity:
// the evidence does not tell them apart, and none adds a mechanism the
// situation does not need. A pattern appears once, as its best option.
func useSet(opts []*option) []*option {
	if !opts[0].safe {
		return nil
	}
	var out []*option
	for _, o := range opts {
		if o.safe && o.fit == opts[0].fit && complexity(o.p) == complexity(opts[0].p) && !slices.ContainsFunc(out, func(u *option) bool { return u.p == o.p }) {
			out = append(out, o)
		}
	}
	return out
}

// runnerUp is the best option of a pattern not chosen.
func runnerUp(opts, chosen []*option) *option {
	for _, o := range opts {
		if !slices.ContainsFunc(chosen, func(c *option) bool { return c.p == o.p }) {
			return o
		}
	}
	return nil
}

func residual(o *option, k Kind) Residual {
	r := Residual{Pattern: o.p.Name, Kind: k.Name}
	if o.worst < 0 {
		return r
	}
	j := o.judged[o.worst]
	r.Scenario, r.Runs, r.Seeds, r.Lo, r.Hi, r.Replay = j.Scenario, j.Runs, j.Seeds, j.Lo, j.Hi, j.Replay
	r.Rate = float64(j.Runs) / float64(max(j.Seeds, 1))
	r.Few = j.Runs == 0 && j.Seeds < seedsToSee(careRate)
	for _, x := range o.judged {
		r.OneSeed = r.OneSeed || (x.Measured && x.Seeds == 1)
		r.Scenarios += btoi(x.Measured)
	}
	return r
}

// unmeasured names the scenarios of the chosen options the evidence has
// no cell for.
func unmeasured(chosen []*option) []string {
	var out []string
	for _, o := range chosen {
		var missing []string
		for _, j := range o.judged {
			if !j.Measured {
				missing = append(missing, j.Scenario)
			}
		}
		if len(missing) > 0 {
			out = append(out, fmt.Sprintf("%s under %s: not measured in this evidence", o.p.Name, strings.Join(missing, ", ")))
		}
	}
	return out
}

// unfired names the cells of the chosen options in some seeds of which
// a fault never fired: a clean seed of those says nothing about it.
func unfired(chosen []*option) []string {
	var out []string
	for _, o := range chosen {
		for _, j := range o.judged {
			if j.Unfired > 0 {
				out = append(out, fmt.Sprintf("%s under %s: a fault did not fire in %d of %d seeds, which judge nothing of it", j.Pattern, j.Scenario, j.Unfired, j.Seeds))
			}
		}
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

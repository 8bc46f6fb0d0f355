package gate

import (
	"fmt"
	"strings"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/explore"
	"github.com/locksim/locksim/sim/scenario"
)

// judge compares the report with the matrix: every gated claim, every
// run that did not complete, the matrix's coverage of the correct
// patterns, and the catch of every broken variant. Of a partial report it
// judges only the claims of cells that ran every seed.
func (r *Result) judge(m *Matrix, rep *explore.Report) {
	judged := map[string]bool{}
	for _, e := range m.Expect {
		if e.Verdict == May {
			r.NotGated++
			continue
		}
		c := rep.Cell(e.Pattern, e.Scenario)
		if rep.Partial != nil && c.Runs < c.Seeds.Count {
			continue
		}
		if key := e.Pattern + " " + e.Scenario; !judged[key] {
			judged[key] = true
			r.judgeCell(e, c)
		}
		for _, claim := range e.Claims {
			o := outcome(e, claim, c)
			r.Checks = append(r.Checks, o)
			if !o.OK {
				r.deviate(missed(o))
			}
		}
	}
	if rep.Partial == nil {
		if !m.Partial {
			r.coverage(m)
		}
		r.catches(m)
	}
}

func (r *Result) deviate(d Deviation) { r.Deviations = append(r.Deviations, d) }

// judgeCell checks what a cell's runs must do whatever its lines say:
// complete, and see every fault of the scenario fire.
func (r *Result) judgeCell(e Expectation, c *explore.CellResult) {
	if c.Errors > 0 {
		r.deviate(runErrors(e, c))
	}
	for _, f := range c.NeverFired() {
		r.deviate(deadFault(e, c, f))
	}
}

// deadFault describes a fault that fired in none of a cell's runs: the
// cell's verdicts say nothing about it.
func deadFault(e Expectation, c *explore.CellResult, f explore.FaultCount) Deviation {
	return Deviation{Line: e.Line, What: fmt.Sprintf("%s under %s: fault %q never fired", e.Pattern, e.Scenario, f.Fault),
		Expected: "every fault of the scenario fires in at least one run of the cell",
		Seen:     fmt.Sprintf("it fired in none of %d runs; seed %d: %s", f.Missed, *f.FirstMissed, f.Why),
		Replay:   c.ReplayCommand(*f.FirstMissed)}
}

func outcome(e Expectation, claim string, c *explore.CellResult) Outcome {
	o := Outcome{Line: e.Line, Pattern: e.Pattern, Scenario: e.Scenario, Arg: c.ScenarioArg, Expect: e.Verdict, Claim: claim,
		Seeds: c.Seeds, Runs: c.Runs - c.Errors, Why: e.Why}
	if f := c.Broke[claim]; f != nil {
		o.Broke, o.FirstSeed = f.Runs, f.FirstSeed
	}
	o.OK = (e.Verdict == Holds) == (o.Broke == 0)
	return o
}

// missed describes an outcome that is not what its line expects.
func missed(o Outcome) Deviation {
	d := Deviation{Line: o.Line, What: fmt.Sprintf("%s under %s %s %s", o.Pattern, o.Scenario, o.Expect, o.Claim), Replay: o.Replay()}
	if o.Line == 0 {
		d.What += " (" + UnlistedWhy + ")"
	}
	seeds := fmt.Sprintf("seeds %d..%d", o.Seeds.Start, o.Seeds.Start+uint64(o.Seeds.Count)-1)
	if o.Expect == Holds {
		d.Expected = fmt.Sprintf("no run of %s breaks %s", seeds, o.Claim)
		d.Seen = fmt.Sprintf("%d of %d runs broke %s, the first at seed %d", o.Broke, o.Runs, o.Claim, *o.FirstSeed)
	} else {
		d.Expected = fmt.Sprintf("some run of %s breaks %s (the suite can see this fault)", seeds, o.Claim)
		d.Seen = fmt.Sprintf("none of %d runs broke %s", o.Runs, o.Claim)
	}
	return d
}

func runErrors(e Expectation, c *explore.CellResult) Deviation {
	return Deviation{Line: e.Line, What: fmt.Sprintf("%s under %s: runs did not complete", e.Pattern, e.Scenario),
		Expected: "every run completes",
		Seen:     fmt.Sprintf("%d of %d runs failed; seed %d: %s", c.Errors, c.Runs, *c.FirstErrorSeed, c.FirstError),
		Replay:   c.ReplayCommand(*c.FirstErrorSeed)}
}

// coverage asks a line for every claim of every correct pattern under
// every built-in scenario, so that a new pattern or fault is classified
// before the gate passes.
func (r *Result) coverage(m *Matrix) {
	lines := map[string]bool{}
	for _, e := range m.Expect {
		for _, c := range e.Claims {
			lines[e.Pattern+" "+e.Scenario+" "+c] = true
		}
	}
	for _, p := range broken.Catalog().All() {
		if p.Broken {
			continue
		}
		for _, b := range scenario.Builtins() {
			for _, c := range explore.ClaimNames(p.Claims) {
				if !lines[p.Name+" "+b.Name+" "+c] {
					r.deviate(Deviation{What: fmt.Sprintf("%s under %s: claim %s has no line", p.Name, b.Name, c),
						Expected: fmt.Sprintf("a line in %s: %s %s holds|breaks|may %s  # why", m.Source, p.Name, b.Name, c),
						Seen:     "none: every claim of a correct pattern under every built-in scenario is classified"})
				}
			}
		}
	}
}

// catches proves every broken variant of the registry caught (of a
// partial matrix: every variant it names): under some scenario it breaks a
// claim that the pattern it imitates holds there.
func (r *Result) catches(m *Matrix) {
	of := map[string]Variant{}
	for _, v := range m.Variants {
		of[v.Name] = v
	}
	for _, p := range broken.Catalog().All() {
		if !p.Broken {
			continue
		}
		v, ok := of[p.Name]
		if !ok && m.Partial {
			continue
		}
		if !ok {
			r.deviate(Deviation{What: fmt.Sprintf("broken variant %s is not in the matrix", p.Name),
				Expected: fmt.Sprintf("a line in %s: variant %s of PATTERN, and a scenario where it breaks a claim PATTERN holds", m.Source, p.Name),
				Seen:     "no variant line"})
			continue
		}
		c := r.catch(v)
		c.Exempt, c.Why = v.Exempt, v.Why
		r.Variants = append(r.Variants, c)
		switch {
		case c.Exempt && c.Caught:
			r.deviate(Deviation{Line: v.Line, What: fmt.Sprintf("broken variant %s is marked exempt but is caught", v.Name),
				Expected: "an exempt variant is one the simulator cannot catch",
				Seen:     fmt.Sprintf("caught under %s (claim %s): drop 'exempt' from the line", c.Scenario, c.Claim)})
		case !c.Exempt && !c.Caught:
			r.deviate(Deviation{Line: v.Line, What: fmt.Sprintf("broken variant %s is not caught", v.Name),
				Expected: fmt.Sprintf("a scenario S and claim C with lines '%s S breaks C' and '%s S holds C', both seen so", v.Name, v.Of),
				Seen:     r.catchAttempts(v)})
		}
	}
}

// catch finds the first line (in file order) where v breaks a claim that
// v.Of holds under the same scenario, both as seen.
func (r *Result) catch(v Variant) Catch {
	for _, b := range r.Checks {
		if b.Pattern != v.Name || b.Expect != Breaks || !b.OK {
			continue
		}
		for _, h := range r.Checks {
			if h.Pattern == v.Of && h.Scenario == b.Scenario && h.Claim == b.Claim && h.Expect == Holds && h.OK {
				return Catch{Variant: v.Name, Of: v.Of, Caught: true, Scenario: b.Scenario, Claim: b.Claim, Seed: b.FirstSeed}
			}
		}
	}
	return Catch{Variant: v.Name, Of: v.Of}
}

// catchAttempts lists what the variant's breaks lines found.
func (r *Result) catchAttempts(v Variant) string {
	var seen []string
	for _, b := range r.Checks {
		if b.Pattern == v.Name && b.Expect == Breaks {
			seen = append(seen, fmt.Sprintf("%s %s: broken in %d of %d runs", b.Scenario, b.Claim, b.Broke, b.Runs))
		}
	}
	if len(seen) == 0 {
		return fmt.Sprintf("no line expects %s to break anything", v.Name)
	}
	return strings.Join(seen, "; ") + fmt.Sprintf(" — and %s does not hold that claim there (or has no holds line)", v.Of)
}

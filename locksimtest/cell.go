package locksimtest

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/locksim/locksim/pattern"
	"github.com/locksim/locksim/sim"
)

// cell is one scenario's runs of the pattern.
type cell struct {
	p       pattern.Pattern
	s       named
	exp     *expected
	seeds   []uint64
	results []outcome          // one per seed
	written map[uint64]Finding // counterexamples written, by seed
}

// outcome is one run: its result, or why it did not complete.
type outcome struct {
	seed uint64
	res  *sim.Result
	err  error
}

// Finding is one deviation from the expectations.
type Finding struct {
	Pattern  string
	Scenario string
	// Claim is the claim not as expected ("" for runs that did not
	// complete).
	Claim string
	// Expect is the verdict expected of the claim: holds or breaks.
	Expect string
	// Source is the expectation line ("file:line", "Expect[i]"), or ""
	// for the default (every claim holds).
	Source string
	Why    string
	// Seed is the lowest seed that broke the claim (or whose run failed);
	// 0 when none did (a breaks line no run bore out).
	Seed  uint64
	Broke int // runs that broke the claim
	Runs  int // runs that completed
	// Err is the first error of a run that did not complete: a panic, a
	// goroutine blocked outside the seams, a nil lease with a nil error.
	Err error
	// Counterexample is the scenario of the breaking seed, written inline
	// with the replay commands; HTML is porcupine's page of its history
	// and Trace its readable trace (absolute paths; "" if not written).
	Counterexample, HTML, Trace string
	// Replay is the go test command that reruns the seed (or the cell).
	Replay string
}

// String is the finding as a test failure reads it.
func (f Finding) String() string {
	var b strings.Builder
	switch {
	case f.Err != nil:
		fmt.Fprintf(&b, "%s under %s: seed %d did not complete: %v", f.Pattern, f.Scenario, f.Seed, f.Err)
	case f.Expect == Holds:
		fmt.Fprintf(&b, "%s under %s: claim %s broken at seed %d (%d of %d runs), expected to hold (%s)",
			f.Pattern, f.Scenario, f.Claim, f.Seed, f.Broke, f.Runs, cmp.Or(f.Source, "the default: every claim holds"))
	default:
		fmt.Fprintf(&b, "%s under %s: claim %s held in all %d runs, expected to break (%s)",
			f.Pattern, f.Scenario, f.Claim, f.Runs, f.Source)
	}
	if f.Why != "" {
		fmt.Fprintf(&b, " — %s", f.Why)
	}
	if f.Counterexample != "" {
		fmt.Fprintf(&b, "\n  counterexample: %s", f.Counterexample)
	}
	if f.HTML != "" {
		fmt.Fprintf(&b, "\n  porcupine page: %s", f.HTML)
	}
	if f.Trace != "" {
		fmt.Fprintf(&b, "\n  trace: %s", f.Trace)
	}
	fmt.Fprintf(&b, "\n  replay: %s", f.Replay)
	return b.String()
}

// Report is what Check saw.
type Report struct {
	Pattern   string
	Seeds     int // per scenario whose lines give no seeds=N
	Scenarios int
	Runs      int
	Findings  []Finding
}

// OK reports whether nothing deviated.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

// Summary is one line on the check.
func (r *Report) Summary() string {
	verdict := "as expected"
	if !r.OK() {
		verdict = fmt.Sprintf("%d deviations", len(r.Findings))
	}
	return fmt.Sprintf("%s: %d runs under %d scenarios: %s", r.Pattern, r.Runs, r.Scenarios, verdict)
}

// judge compares the cell's runs with its expectations.
func (c *cell) judge(o Options) ([]Finding, error) {
	var out []Finding
	done := 0
	for _, r := range c.results {
		if r.err != nil {
			if len(out) == 0 {
				out = append(out, c.finding(Finding{Seed: r.seed, Err: r.err}, o))
			}
			continue
		}
		done++
	}
	for _, claim := range c.claims() {
		e, lined := c.exp.verdict[claim]
		verdict := Holds
		if lined {
			verdict = e.verdict
		}
		broke, first := c.broke(claim)
		f := Finding{Claim: claim, Expect: verdict, Source: e.source, Why: e.why, Seed: first, Broke: broke, Runs: done}
		switch {
		case verdict == Holds && broke > 0:
			f = c.finding(f, o)
			if err := c.writeCounterexample(&f, o); err != nil {
				return nil, err
			}
			out = append(out, f)
		case verdict == Breaks && broke == 0 && done > 0 && *flagSeed == 0:
			out = append(out, c.finding(f, o))
		}
	}
	return out, nil
}

// claims are the pattern's own and any other a line names (progress).
func (c *cell) claims() []string {
	out := c.p.Claims.Names()
	for claim := range c.exp.verdict {
		if !slices.Contains(out, claim) {
			out = append(out, claim)
		}
	}
	slices.Sort(out[len(c.p.Claims.Names()):])
	return out
}

// broke counts the completed runs that broke claim, and the lowest seed.
func (c *cell) broke(claim string) (n int, first uint64) {
	for _, r := range c.results {
		if r.err != nil || !breaks(r.res, claim) {
			continue
		}
		if n++; n == 1 {
			first = r.seed
		}
	}
	return n, first
}

func breaks(r *sim.Result, claim string) bool {
	switch claim {
	case Progress:
		return r.Liveness.Stalled()
	case NoStarvation:
		return r.Liveness.Starved()
	}
	return slices.Contains(r.Violated, claim)
}

// finding fills in what every finding of the cell names.
func (c *cell) finding(f Finding, o Options) Finding {
	f.Pattern, f.Scenario = c.p.Name, c.s.name
	f.Replay = replay(o.TestName, c.s.name, f.Seed)
	return f
}

// replay is the go test command that reruns one seed of a scenario, or the
// whole scenario when seed is 0.
func replay(test, scenario string, seed uint64) string {
	run := "-run '" + anchored(test) + "' "
	if test == "" {
		run = "-run TEST "
	}
	cmd := "go test -count=1 " + run + "-locksim.scenario=" + scenario
	if seed > 0 {
		cmd += fmt.Sprintf(" -locksim.seed=%d", seed)
	}
	return cmd
}

// anchored turns a test name (TestX/sub) into a -run pattern matching it
// alone.
func anchored(test string) string {
	parts := strings.Split(test, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

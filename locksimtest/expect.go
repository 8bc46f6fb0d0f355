package locksimtest

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/locksim/locksim/pattern"
)

// Progress and NoStarvation are the liveness properties any pattern may be
// expected to keep or lose. Progress: the lock is never free for longer
// than sim.ProgressBound (a pattern may claim it, pattern.Claims.Progress,
// and is then checked on it like on its other claims); NoStarvation: no
// client acquired nothing in the last stretch of a run. Unclaimed, each is
// checked only where a line names it.
const (
	Progress     = string(pattern.ClaimProgress)
	NoStarvation = "no-starvation"
)

// Verdicts of an expectation line, as in locksim check's matrix.
const (
	Holds  = "holds"  // no seed breaks the claim (the default of every claim)
	Breaks = "breaks" // some seed breaks it: the harness must see the fault
	May    = "may"    // not checked
)

// expectation is one parsed line.
type expectation struct {
	source   string // "file:line" or "Expect[i]"
	scenario string
	verdict  string
	claims   []string
	seeds    int // seeds=N; 0: the run's
	why      string
}

// parseExpectations reads the lines of o.Expect and o.ExpectFile that
// concern p. A line is the gate's
//
//	pattern scenario holds|breaks|may claim[,claim] [seeds=N]  # why
//
// or, the pattern being known, the same without its first field. Lines
// for other patterns and "variant" lines are skipped, so one file can
// serve several patterns and locksim check --expect.
func parseExpectations(p pattern.Pattern, o Options) ([]expectation, error) {
	var out []expectation
	for i, line := range o.Expect {
		e, ok, err := parseExpectation(p, line)
		if err != nil {
			return nil, fmt.Errorf("locksimtest: Expect[%d] %q: %w", i, line, err)
		}
		if ok {
			e.source = fmt.Sprintf("Expect[%d]", i)
			out = append(out, e)
		}
	}
	if o.ExpectFile == "" {
		return out, nil
	}
	f, err := os.Open(o.ExpectFile)
	if err != nil {
		return nil, fmt.Errorf("locksimtest: ExpectFile: %w", err)
	}
	defer f.Close()
	more, err := parseExpectFile(p, o.ExpectFile, f)
	return append(out, more...), err
}

func parseExpectFile(p pattern.Pattern, name string, r io.Reader) ([]expectation, error) {
	var out []expectation
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		e, ok, err := parseExpectation(p, sc.Text())
		if err != nil {
			return nil, fmt.Errorf("locksimtest: %s:%d: %w", name, n, err)
		}
		if ok {
			e.source = fmt.Sprintf("%s:%d", name, n)
			out = append(out, e)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("locksimtest: %s: %w", name, err)
	}
	return out, nil
}

// parseExpectation reads one line; ok is false for a blank or comment
// line, a variant line, or a line about another pattern.
func parseExpectation(p pattern.Pattern, raw string) (e expectation, ok bool, err error) {
	text, why, _ := strings.Cut(raw, "#")
	f := strings.Fields(text)
	if len(f) == 0 || f[0] == "variant" {
		return e, false, nil
	}
	if len(f) >= 2 && !isVerdict(f[1]) {
		if f[0] != p.Name {
			return e, false, nil
		}
		f = f[1:]
	}
	if len(f) < 3 || len(f) > 4 {
		return e, false, fmt.Errorf("%d fields, want: [pattern] scenario holds|breaks|may claim[,claim] [seeds=N]", len(f))
	}
	e = expectation{scenario: f[0], verdict: f[1], claims: strings.Split(f[2], ","), why: strings.TrimSpace(why)}
	if !isVerdict(e.verdict) {
		return e, false, fmt.Errorf("verdict %q, want holds, breaks or may", e.verdict)
	}
	own := p.Claims.Names()
	for _, c := range e.claims {
		if c != Progress && c != NoStarvation && !slices.Contains(own, c) {
			return e, false, fmt.Errorf("claim %q: %s claims %s (or give %s or %s)", c, p.Name, strings.Join(own, ", "), Progress, NoStarvation)
		}
	}
	if len(f) == 4 {
		v, isSeeds := strings.CutPrefix(f[3], "seeds=")
		n, convErr := strconv.Atoi(v)
		if !isSeeds || convErr != nil || n < 1 {
			return e, false, fmt.Errorf("%q: want seeds=N with N ≥ 1", f[3])
		}
		e.seeds = n
	}
	return e, true, nil
}

func isVerdict(s string) bool { return s == Holds || s == Breaks || s == May }

// expected is what the lines say of one scenario: a verdict per claim, the
// line that said it, and the scenario's seed budget.
type expected struct {
	verdict map[string]expectation
	seeds   int
}

// byScenario groups the lines by scenario, refusing a scenario the run
// does not have, a claim given twice and two seed budgets for one
// scenario.
func byScenario(es []expectation, scenarios []string) (map[string]*expected, error) {
	out := map[string]*expected{}
	for _, e := range es {
		if !slices.Contains(scenarios, e.scenario) {
			return nil, fmt.Errorf("locksimtest: %s: scenario %q is not run (scenarios: %s)", e.source, e.scenario, strings.Join(scenarios, ", "))
		}
		x := out[e.scenario]
		if x == nil {
			x = &expected{verdict: map[string]expectation{}}
			out[e.scenario] = x
		}
		for _, c := range e.claims {
			if prev, dup := x.verdict[c]; dup {
				return nil, fmt.Errorf("locksimtest: %s: %s under %s already expected by %s", e.source, c, e.scenario, prev.source)
			}
			x.verdict[c] = e
		}
		if e.seeds > 0 && x.seeds > 0 && e.seeds != x.seeds {
			return nil, fmt.Errorf("locksimtest: %s: seeds=%d, but another line gives %s seeds=%d", e.source, e.seeds, e.scenario, x.seeds)
		}
		x.seeds = max(x.seeds, e.seeds)
	}
	return out, nil
}

package gate

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/locksim/locksim/internal/broken"
	"github.com/locksim/locksim/internal/explore"
)

// Unlisted says what a partial matrix expects of the claims its lines do
// not mention.
type Unlisted string

// The two choices.
const (
	// UnlistedHolds: every claim of every cell — each pattern the lines
	// name under each scenario they name — holds unless a line says
	// otherwise.
	UnlistedHolds Unlisted = "holds"
	// UnlistedSkip: only the lines are checked.
	UnlistedSkip Unlisted = "skip"
)

// UnlistedWhy is the comment of a line Select adds for an unlisted claim.
const UnlistedWhy = "unlisted: every claim holds"

// Selection narrows a matrix to some patterns and scenarios.
type Selection struct {
	// Patterns and Scenarios keep the lines of these patterns and these
	// scenarios (names, or a scenario file's path); empty keeps all.
	Patterns, Scenarios []string
	// Unlisted is what a partial matrix expects of what its lines do not
	// mention (default UnlistedHolds).
	Unlisted Unlisted
}

// Select returns the matrix narrowed to s. A selection that drops lines
// makes the matrix Partial. A partial matrix is then completed: under
// UnlistedHolds, every claim of each kept pattern under each kept scenario
// that no line mentions gets a holds line (line 0, UnlistedWhy).
// Variants are kept when both the variant and its pattern are.
func (m *Matrix) Select(s Selection) (*Matrix, error) {
	if s.Unlisted == "" {
		s.Unlisted = UnlistedHolds
	}
	if s.Unlisted != UnlistedHolds && s.Unlisted != UnlistedSkip {
		return nil, fmt.Errorf("unlisted %q: want holds or skip", s.Unlisted)
	}
	scs, err := m.selectedScenarios(s.Scenarios)
	if err != nil {
		return nil, err
	}
	for _, name := range s.Patterns {
		if _, err := broken.Catalog().Lookup(name); err != nil {
			return nil, err
		}
	}
	keep := func(p string) bool { return len(s.Patterns) == 0 || slices.Contains(s.Patterns, p) }
	out := &Matrix{Source: m.Source, Partial: m.Partial, files: m.files}
	for _, e := range m.Expect {
		if keep(e.Pattern) && (scs == nil || slices.Contains(scs, e.Scenario)) {
			out.Expect = append(out.Expect, e)
		}
	}
	for _, v := range m.Variants {
		if keep(v.Name) && keep(v.Of) {
			out.Variants = append(out.Variants, v)
		}
	}
	out.Partial = out.Partial || len(out.Expect) < len(m.Expect) || len(out.Variants) < len(m.Variants)
	if len(out.Expect) == 0 {
		return nil, fmt.Errorf("%s: no line left by the selection (patterns %v, scenarios %v)", m.Source, s.Patterns, s.Scenarios)
	}
	if out.Partial && s.Unlisted == UnlistedHolds {
		out.Expect = append(out.Expect, out.unlisted()...)
	}
	return out, nil
}

// selectedScenarios resolves the scenario filter to names: a name, or the
// path of a file the lines name; nil keeps every scenario.
func (m *Matrix) selectedScenarios(filter []string) ([]string, error) {
	if len(filter) == 0 {
		return nil, nil
	}
	var out []string
	for _, f := range filter {
		name, ok := m.scenarioNamed(f)
		if !ok {
			return nil, fmt.Errorf("scenario %q: no line of %s names it", f, m.Source)
		}
		out = append(out, name)
	}
	return out, nil
}

// scenarioNamed finds a scenario of the lines by name or by file path.
func (m *Matrix) scenarioNamed(f string) (string, bool) {
	abs, _ := filepath.Abs(f)
	for _, e := range m.Expect {
		if e.Scenario == f {
			return f, true
		}
		if sc, ok := m.files[e.Scenario]; ok && sc.Arg == abs {
			return e.Scenario, true
		}
	}
	return "", false
}

// unlisted returns a holds line for every claim of every cell (pattern ×
// scenario of the lines) that no line mentions, cells in the order their
// patterns and scenarios first appear; a cell keeps the seed budget its
// lines give it.
func (m *Matrix) unlisted() []Expectation {
	var pats, scs []string
	said := map[string]bool{}
	seeds := map[string]int{}
	for _, e := range m.Expect {
		if !slices.Contains(pats, e.Pattern) {
			pats = append(pats, e.Pattern)
		}
		if !slices.Contains(scs, e.Scenario) {
			scs = append(scs, e.Scenario)
		}
		for _, c := range e.Claims {
			said[e.Pattern+" "+e.Scenario+" "+c] = true
		}
		if e.Verdict != May && e.Seeds > 0 {
			seeds[e.Pattern+" "+e.Scenario] = e.Seeds
		}
	}
	var out []Expectation
	for _, name := range pats {
		p, _ := broken.Catalog().Lookup(name) // every line's pattern was looked up by Parse
		for _, sc := range scs {
			var claims []string
			for _, c := range explore.ClaimNames(p.Claims) {
				if !said[name+" "+sc+" "+c] {
					claims = append(claims, c)
				}
			}
			if len(claims) > 0 {
				out = append(out, Expectation{Pattern: name, Scenario: sc, Verdict: Holds, Claims: claims,
					Seeds: seeds[name+" "+sc], Why: UnlistedWhy})
			}
		}
	}
	return out
}
